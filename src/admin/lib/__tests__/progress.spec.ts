import { computeProgress, isFullPass, percentDone, phaseInWords, progressOfRun, type ProgressInput } from "../progress"

const T0 = Date.parse("2026-11-23T10:00:00Z")
const base = (over: Partial<ProgressInput> = {}): ProgressInput => ({
  mode: "full",
  status: "running",
  phase: "full_export",
  done: 0,
  pages: 0,
  expectedTotal: 1500,
  startedAt: new Date(T0).toISOString(),
  now: T0 + 60_000,
  ...over,
})

describe("percentDone", () => {
  it("is strictly non-decreasing as done grows and never above 100", () => {
    let previous = -1
    for (let done = 0; done <= 3000; done += 7) {
      const percent = percentDone(done, 1500)!
      expect(percent).toBeGreaterThanOrEqual(previous)
      expect(percent).toBeLessThanOrEqual(99)
      previous = percent
    }
  })
  it("floors, so 1,499 of 1,500 is 99 and not a finished-looking 100; 100 only when succeeded", () => {
    expect(percentDone(1499, 1500)).toBe(99)
    expect(percentDone(1500, 1500)).toBe(99)
    expect(percentDone(400, 1500)).toBe(26)
    expect(percentDone(1200, 1500)).toBe(80)
    expect(percentDone(10, 1500, true)).toBe(100)
  })
  it("is null without a usable total", () => {
    expect(percentDone(5, null)).toBeNull()
    expect(percentDone(5, 0)).toBeNull()
    expect(percentDone(5, Number.NaN)).toBeNull()
  })
})

describe("computeProgress", () => {
  it("gives rate and ETA from the elapsed time: 400 in 1 min of 1,500 leaves 2 min 45 s", () => {
    const view = computeProgress(base({ done: 400, pages: 2 }))
    expect(view.percent).toBe(26)
    expect(view.ratePerMinute).toBe(400)
    expect(view.etaMs).toBe(165_000)
    expect(view.summary).toBe("400 of 1,500 products (26 %) · page 2 · 400/min · about 2 min 45 s left")
  })
  it("the ETA shrinks as time passes at the same rate", () => {
    const a = computeProgress(base({ done: 400, now: T0 + 60_000 }))
    const b = computeProgress(base({ done: 800, now: T0 + 120_000 }))
    expect(b.etaMs!).toBeLessThan(a.etaMs!)
  })
  it("zero rate: no ETA, no rate, no division by zero", () => {
    const view = computeProgress(base({ done: 0 }))
    expect(view.ratePerMinute).toBeNull()
    expect(view.etaMs).toBeNull()
    expect(view.percent).toBe(0)
    expect(view.summary).toContain("time left not known yet")
  })
  it("less than a second in: no rate yet", () => {
    expect(computeProgress(base({ done: 200, now: T0 + 500 })).ratePerMinute).toBeNull()
  })
  it("unknown total (a first sync): products read, no percent, no ETA", () => {
    const view = computeProgress(base({ expectedTotal: null, done: 600, pages: 3 }))
    expect(view.total).toBeNull()
    expect(view.percent).toBeNull()
    expect(view.etaMs).toBeNull()
    expect(view.summary).toBe("600 products read, total not known yet · page 3 · 600/min · time left not known yet")
  })
  it("a changes run is not measured against the catalog's size and shows what it found", () => {
    const view = computeProgress(base({ mode: "changes", phase: "changes", done: 35, pages: 1, changesFound: 12 }))
    expect(view.percent).toBeNull()
    expect(view.summary.startsWith("35 changes read, 12 applied so far · page 1")).toBe(true)
  })
  it("a changes-mode run that fell back to a full pass is measured (phase full_export)", () => {
    expect(isFullPass({ mode: "changes", phase: "full_export" })).toBe(true)
    expect(isFullPass({ mode: "full", phase: "changes" })).toBe(false)
    expect(isFullPass({ mode: "full", phase: null })).toBe(true)
  })
  it("a succeeded run is 100 % with nothing left, whatever the estimate was", () => {
    const view = computeProgress(base({ status: "succeeded", phase: "done", done: 1480, finishedAt: new Date(T0 + 90_000).toISOString() }))
    expect(view.percent).toBe(100)
    expect(view.etaMs).toBe(0)
    expect(view.elapsedMs).toBe(90_000)
    expect(view.phaseText).toBe("Finished")
  })
  it("no start time yet (queued): no elapsed time", () => {
    const view = computeProgress(base({ status: "queued", startedAt: null, phase: null }))
    expect(view.elapsedMs).toBeNull()
    expect(view.phaseText).toBe("Waiting to start")
  })
})

describe("phaseInWords", () => {
  it("says what the run does", () => {
    expect(phaseInWords("full_export")).toBe("Reading the whole catalog")
    expect(phaseInWords("paused", "paused")).toBe("Paused by the safety brake: waiting for your answer")
    expect(phaseInWords("changes", "paused")).not.toBe(phaseInWords(null, "queued"))
    expect(phaseInWords("changes")).toBe("Reading what changed since the last sync")
    expect(phaseInWords("sweep")).toBe("Removing products the catalog no longer has")
    expect(phaseInWords("something_new")).toBe("something new")
  })
})

describe("progressOfRun", () => {
  const run = {
    mode: "full" as const,
    status: "running",
    pages: 2,
    items_seen: 400,
    started_at: new Date(T0).toISOString(),
    finished_at: null,
    progress: { phase: "full_export" } as Record<string, unknown>,
  }
  it("uses the status route's expected total", () => {
    expect(progressOfRun(run, { now: T0 + 60_000, expectedTotal: 1500 }).percent).toBe(26)
  })
  it("prefers products done inside the page and the run's own total when the backend records them", () => {
    const view = progressOfRun({ ...run, progress: { phase: "full_export", items_done: 550, expected_total: 2000 } }, { now: T0 + 60_000, expectedTotal: 1500 })
    expect(view.done).toBe(550)
    expect(view.total).toBe(2000)
  })
  it("ignores an items_done behind the pages already counted", () => {
    expect(progressOfRun({ ...run, progress: { items_done: 10 } }, { now: T0 + 60_000 }).done).toBe(400)
  })
})
