import { WritePacing } from "../write-pacing"

const waiting = { arrived: () => false, whenArrived: () => new Promise<void>(() => undefined) }

describe("a run's page write pacing", () => {
  it("budgets a page from the previous page's record and the run's wait for it, and sums the run's writes", async () => {
    let t = 0
    const pacing = new WritePacing(() => t)
    // The run's first page: no budget, so its pause points never pause.
    const first = pacing.forPage(0, waiting)
    t += 200
    await first.pace()
    expect(pacing.written(first)).toEqual({ busyMs: 200, pausedMs: 0, pauses: 0, points: 1 })
    // The run then waited 800 ms for the next page: that page may spread its work over 200 + 600 ms.
    const second = pacing.forPage(800, waiting)
    t += 100
    const timer = jest.spyOn(global, "setTimeout")
    const paused = second.pace()
    // Half the previous page's work done: half of the 600 ms of slack due (capped at the longest pause).
    expect(timer).toHaveBeenCalledWith(expect.any(Function), 250)
    timer.mockRestore()
    t += 250
    await paused
    expect(pacing.written(second)).toEqual({ busyMs: 100, pausedMs: 250, pauses: 1, points: 1 })
    // The next page was there at once, but the pauses that page took were slack too: a budget of
    // its 100 ms of work and three quarters of the 250 ms paused.
    const third = pacing.forPage(0, waiting)
    t += 50
    const again = jest.spyOn(global, "setTimeout")
    const pausedAgain = third.pace()
    expect(again).toHaveBeenCalledWith(expect.any(Function), 0.5 * 0.75 * 250)
    again.mockRestore()
    t += 93.75
    await pausedAgain
    pacing.written(third)
    expect(pacing.summary(2_000)).toBe("catalog sync: page writes here 3, busy 0.3 s (18 % of the run's 2.0 s); paced 2 of them, 0.3 s in 2 pauses")
  })

  it("gives no budget after a page that neither waited for the next one nor paused (the writer is the bottleneck)", async () => {
    let t = 0
    const pacing = new WritePacing(() => t)
    const first = pacing.forPage(0, waiting)
    t += 300
    pacing.written(first)
    const second = pacing.forPage(0, waiting)
    t += 150
    const timer = jest.spyOn(global, "setTimeout")
    await second.pace()
    expect(timer).not.toHaveBeenCalled()
    timer.mockRestore()
    expect(pacing.written(second)).toEqual({ busyMs: 150, pausedMs: 0, pauses: 0, points: 1 })
  })
})
