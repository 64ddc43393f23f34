import { PACE_OPTIONS, paceBudget, pauseDue, type PageWriteRecord } from "../write-pace"

describe("write pace: the budget of a page's write", () => {
  it("is none for a run's first page and for a writer that left no slack (the catalog faster than the writer)", () => {
    expect(paceBudget(null)).toBeNull()
    expect(paceBudget({ busyMs: 400, pausedMs: 0, waitedMs: 0 })).toBeNull()
    expect(paceBudget({ busyMs: 400, pausedMs: 0, waitedMs: PACE_OPTIONS.minSlackMs - 1 })).toBeNull()
    expect(paceBudget({ busyMs: 0, pausedMs: 0, waitedMs: 900 })).toBeNull()
  })

  it("spreads the previous page's work over it plus a share of the slack: the wait for the page and the pauses that used it", () => {
    expect(paceBudget({ busyMs: 200, pausedMs: 0, waitedMs: 800 })).toEqual({ expectedBusyMs: 200, spreadMs: 200 + 0.75 * 800 })
    // A paced page waited less for its next page: its pauses were slack too, so the budget holds steady.
    expect(paceBudget({ busyMs: 200, pausedMs: 600, waitedMs: 200 })).toEqual({ expectedBusyMs: 200, spreadMs: 200 + 0.75 * 800 })
  })
})

describe("write pace: the pause due at a pause point", () => {
  const budget = { expectedBusyMs: 200, spreadMs: 800 }

  it("earns pause in proportion to the work done", () => {
    expect(pauseDue(budget, { busyMs: 50, pausedMs: 0 })).toBe(150)
    expect(pauseDue(budget, { busyMs: 100, pausedMs: 150 })).toBe(150)
    // Ahead of the work: nothing due yet.
    expect(pauseDue(budget, { busyMs: 100, pausedMs: 300 })).toBe(0)
  })

  it("never pauses more in all than the budget's slack, nor longer than the longest pause at once", () => {
    expect(pauseDue(budget, { busyMs: 1_000, pausedMs: 500 })).toBe(100)
    expect(pauseDue(budget, { busyMs: 1_000, pausedMs: 600 })).toBe(0)
    expect(pauseDue({ expectedBusyMs: 100, spreadMs: 5_100 }, { busyMs: 100, pausedMs: 0 })).toBe(PACE_OPTIONS.maxPauseMs)
  })

  it("leaves a pause shorter than the shortest worth a timer to the next point", () => {
    expect(pauseDue(budget, { busyMs: 1, pausedMs: 0 })).toBe(0)
    expect(pauseDue(budget, { busyMs: 2, pausedMs: 0 })).toBe(6)
  })
})

/**
 * A run simulated page by page: the API gives a page every `intervalMs` (the reader asks for the
 * next page when a page is handed to the writer, and it comes `intervalMs` after the previous
 * one's request, or at once when that is past); the writer's work is `workMs` a page in `points`
 * equal statements, and at each pause point it pauses as the budget says, until the next page
 * arrives.
 */
function simulate(intervalMs: number, workMs: number, pages = 30, points = 30) {
  let now = 0
  let previous: PageWriteRecord | null = null
  let lastRequest = 0
  let arrival = 0
  let waited = 0
  const records: PageWriteRecord[] = []
  for (let p = 0; p < pages; p++) {
    // The page is here (the run waited for it if need be) and handed over: the next one is asked for.
    waited = Math.max(0, arrival - now)
    now = Math.max(now, arrival)
    const request = Math.max(now, lastRequest + intervalMs)
    lastRequest = request
    const budget = paceBudget(previous && { ...previous, waitedMs: waited })
    // After the last page there is none to wait for: its write goes at full speed.
    arrival = p === pages - 1 ? now : request
    const started = now
    let paused = 0
    for (let i = 0; i < points; i++) {
      now += workMs / points
      if (!budget || now >= arrival) continue
      const due = pauseDue(budget, { busyMs: now - started - paused, pausedMs: paused })
      const pause = Math.min(due, arrival - now)
      now += pause
      paused += pause
    }
    previous = { busyMs: now - started - paused, pausedMs: paused, waitedMs: 0 }
    records.push({ ...previous, waitedMs: waited })
  }
  return { records, seconds: now / 1000 }
}

describe("write pace: a run at the API's pace", () => {
  it("with slack, spreads each page's work over most of the time between pages and keeps the API's pace", () => {
    const { records, seconds } = simulate(1_000, 250)
    // The last page has no next page to wait for: unpaced.
    const steady = records.slice(3, -1)
    for (const r of steady) {
      // Most of the slack is used, the margin left as a wait.
      expect(r.pausedMs).toBeGreaterThan(0.6 * 750)
      expect(r.pausedMs).toBeLessThanOrEqual(750)
    }
    // Unpaced, the same run takes 29 intervals plus the last page's work.
    expect(seconds).toBeLessThanOrEqual(29 * 1 + 0.25 + 0.001)
  })

  it("with a writer slower than the API, never pauses (no slack to use)", () => {
    const { records, seconds } = simulate(1_000, 1_300)
    expect(records.map((r) => r.pausedMs)).toEqual(records.map(() => 0))
    expect(seconds).toBeCloseTo(30 * 1.3, 6)
  })

  it("with a fast catalog (the next page always there), never pauses", () => {
    const { records } = simulate(5, 250)
    expect(records.every((r) => r.pausedMs === 0)).toBe(true)
  })
})
