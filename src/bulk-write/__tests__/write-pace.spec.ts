import { PACE_OPTIONS } from "../../sync/write-pace"
import { PagePacer, paceWrites, withWritePace, type NextPage } from "../write-pace"

/** A next page that arrives when told to. */
function nextPage(arrived = false): NextPage & { arrive(): void } {
  let resolve!: () => void
  const when = new Promise<void>((r) => (resolve = r))
  return {
    arrived: () => arrived,
    whenArrived: () => when,
    arrive() {
      arrived = true
      resolve()
    },
  }
}

/** A clock the test moves: the pacer's work is the time it advanced between points. */
function clock() {
  let t = 0
  return { now: () => t, work: (ms: number) => void (t += ms) }
}

const budget = { expectedBusyMs: 100, spreadMs: 400 }

describe("page pacer", () => {
  it("pauses at a point in proportion to the work done, and records its pauses and points", async () => {
    const c = clock()
    const pacer = new PagePacer(budget, nextPage(), c.now)
    c.work(50)
    const timer = jest.spyOn(global, "setTimeout")
    const paused = pacer.pace()
    // Half the expected work done: half the slack (150 ms) due now.
    expect(timer).toHaveBeenCalledWith(expect.any(Function), 150)
    timer.mockRestore()
    c.work(150) // the pause's own time, as the clock sees it
    await paused
    expect(pacer.record()).toEqual({ busyMs: 50, pausedMs: 150, pauses: 1, points: 1 })
  })

  it("takes no pause once the next page has arrived, nor without a budget", async () => {
    const c = clock()
    const arrived = new PagePacer(budget, nextPage(true), c.now)
    const unbudgeted = new PagePacer(null, nextPage(), c.now)
    c.work(80)
    await arrived.pace()
    await unbudgeted.pace()
    expect(arrived.record()).toEqual({ busyMs: 80, pausedMs: 0, pauses: 0, points: 1 })
    expect(unbudgeted.record()).toEqual({ busyMs: 80, pausedMs: 0, pauses: 0, points: 1 })
  })

  it("ends a pause as soon as the next page arrives", async () => {
    const next = nextPage()
    const pacer = new PagePacer({ expectedBusyMs: 10, spreadMs: 60_010 }, next, () => performance.now(), { ...PACE_OPTIONS, maxPauseMs: 60_000 })
    const spin = performance.now() + 20
    while (performance.now() < spin); // work, so that a long pause is due
    const started = performance.now()
    const paused = pacer.pace()
    setTimeout(() => next.arrive(), 20)
    await paused
    // A minute due, cut short by the arrival.
    expect(performance.now() - started).toBeLessThan(30_000)
    expect(pacer.record().pauses).toBe(1)
  })

  it("paces only the writes run inside its scope", async () => {
    const c = clock()
    const pacer = new PagePacer(null, nextPage(), c.now)
    expect(paceWrites()).toBeUndefined()
    await withWritePace(pacer, async () => {
      await paceWrites()
      await paceWrites()
    })
    await paceWrites()
    expect(pacer.record().points).toBe(2)
  })
})

describe("page pacer, steps side by side", () => {
  it("pauses them together: the pause is counted once, and the record's work never goes below zero", async () => {
    const c = clock()
    const pacer = new PagePacer(budget, nextPage(), c.now)
    c.work(50)
    const first = pacer.pace()
    const second = pacer.pace()
    c.work(150)
    await Promise.all([first, second])
    expect(pacer.record()).toEqual({ busyMs: 50, pausedMs: 150, pauses: 1, points: 2 })
  })
})

describe("page pacer, a step inside a transaction", () => {
  it("does not join another step's pause: one paused transaction at most holds a pooled connection", async () => {
    const c = clock()
    const pacer = new PagePacer(budget, nextPage(), c.now)
    c.work(50)
    let pausing = true
    const outside = pacer.pace().then(() => void (pausing = false))
    await pacer.pace(true)
    // Went on at once, while the other step still pauses.
    expect(pausing).toBe(true)
    c.work(150)
    await outside
    expect(pacer.record()).toEqual({ busyMs: 50, pausedMs: 150, pauses: 1, points: 2 })
  })
})
