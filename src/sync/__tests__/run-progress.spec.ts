import { ENDED_SHOWN_MS, ETA_BASIS_MS, percentOf, progressView, type RunForProgress } from "../run-progress"
import { requestsToday } from "../requests-today"

const T0 = Date.parse("2026-11-23T10:00:00Z")
const at = (ms: number) => new Date(T0 + ms).toISOString()

/** A full pass of a 2,000-product catalog, 10 s of setup, its first page read at +10 s. */
const run = (over: Partial<RunForProgress> = {}, progress: Record<string, unknown> = {}): RunForProgress => ({
  id: "run_1",
  mode: "full",
  status: "running",
  trigger: "manual",
  pages: 2,
  items_seen: 400,
  created: 0,
  updated: 190,
  stock_only: 10,
  unchanged: 200,
  removed: 0,
  skipped: 0,
  swept: 0,
  started_at: at(0),
  finished_at: null,
  updated_at: at(30_000),
  progress: {
    phase: "full_export",
    pass_id: "pass_1",
    items_done: 400,
    items_read: 800,
    reading_since: at(10_000),
    expected_total: 2000,
    expected_total_source: "last_full_pass",
    ...progress,
  },
  ...over,
})

const view = (r: RunForProgress | null, now = T0 + 30_000, blocked: { code: string | null } | null = null) => progressView({ run: r, blocked, now })!

describe("progressView: the total of a full pass", () => {
  it('takes the size the shop knows while the run has stored none yet, never "not known" after a previous pass', () => {
    const starting = run(
      { pages: 0, items_seen: 0 },
      { phase: "setup", pass_id: undefined, items_done: 0, items_read: 0, expected_total: undefined, expected_total_source: undefined }
    )
    expect(view(starting).total).toBeNull()
    const known = progressView({ run: starting, blocked: null, now: T0 + 30_000, expected: { total: 949, source: "last_full_pass" } })!
    expect(known).toMatchObject({ total: 949, total_source: "last_full_pass", percent: 0 })
    // The run's own figure, once stored, wins.
    expect(progressView({ run: run(), blocked: null, now: T0 + 30_000, expected: { total: 949, source: "product_map" } })!).toMatchObject({ total: 2000 })
    // A changes run is not measured against the catalog's size.
    expect(
      progressView({
        run: run({ mode: "changes" }, { phase: "changes", pass_id: null, expected_total: undefined }),
        blocked: null,
        now: T0,
        expected: { total: 949, source: "x" },
      })!.total
    ).toBeNull()
  })
})

describe("progressView: an estimate the pass has read past", () => {
  it('drops the total once the pass read more than the estimate (the catalog grew): never "1,000 of 728 (99 %)"', () => {
    // The review's case: the last full pass read 728, the catalog has 1,128 now.
    const grown = view(run({ items_seen: 800 }, { items_done: 800, items_read: 1_000, expected_total: 728 }))
    expect(grown).toMatchObject({ read: 1_000, written: 800, total: null, percent: null, eta_ms: null, total_source: null, outgrown_total: 728 })
    // Up to the estimate it is the estimate.
    expect(view(run({ items_seen: 700 }, { items_done: 700, items_read: 728, expected_total: 728 }))).toMatchObject({
      total: 728,
      percent: 96,
      outgrown_total: null,
    })
    // At the estimate with the catalog saying more pages follow: grown too (the fourth review's
    // "800 of 800 (99 %)" while the catalog had 1,200, pages of 200 reaching the estimate exactly).
    const atEstimate = { items_done: 800, items_read: 800, expected_total: 800 }
    expect(view(run({ items_seen: 800 }, { ...atEstimate, more_to_read: true }))).toMatchObject({ total: null, percent: null, outgrown_total: 800 })
    // Its last page read (nothing follows): still the estimate, 99 % until the pass ends.
    expect(view(run({ items_seen: 800 }, { ...atEstimate, more_to_read: false }))).toMatchObject({ total: 800, percent: 99, outgrown_total: null })
    // The catalog shrank: once its last page is read, the size is what the pass read (the fifth
    // review's "1,180 of 1,450 (81 %)" while the catalog had 1,180).
    const shrunk = view(run({ items_seen: 1_000 }, { items_done: 1_000, items_read: 1_180, expected_total: 1_450, more_to_read: false }))
    expect(shrunk).toMatchObject({ total: 1_180, percent: 84, outgrown_total: null })
    expect(view(run({ items_seen: 1_000 }, { items_done: 1_000, items_read: 1_180, expected_total: 1_450, more_to_read: true })).total).toBe(1_450)
    // Once the pass succeeded its total is what it went through.
    const done = view(run({ status: "succeeded", items_seen: 1_128, finished_at: at(60_000) }, { items_done: 1_128, items_read: 1_128, expected_total: 728 }))
    expect(done).toMatchObject({ total: 1_128, percent: 100, outgrown_total: null })
  })
})

describe("progressView: after a disconnect", () => {
  it("a run that just ended is no news once no key is saved: the chip does not show it beside 'not connected' (issue 43, third review)", () => {
    const ended = run({ status: "succeeded", finished_at: at(20_000) })
    expect(progressView({ run: ended, blocked: null, now: T0 + 30_000 })!.ended_recently).toBe(true)
    expect(progressView({ run: ended, blocked: null, now: T0 + 30_000, configured: false })!.ended_recently).toBe(false)
  })
})

describe("progressView: read and written", () => {
  it("counts what the catalog sent as read and what committed as written, percent of written", () => {
    const v = view(run())
    expect(v).toMatchObject({ read: 800, written: 400, total: 2000, percent: 20, look: "running", pages: 2 })
    expect(v.counts).toMatchObject({ updated: 190, stock_only: 10, unchanged: 200 })
  })

  it("never shows written ahead of read, nor written counts ahead of written products", () => {
    // items_done from the in-page counter beyond what was read (a counter counting twice) is bounded by read.
    const v = view(run({}, { items_done: 1_200, items_read: 800 }))
    expect(v.written).toBe(800)
    expect(v.written).toBeLessThanOrEqual(v.read)
    // The written counts are those of committed pages: never more than products written.
    const c = view(run()).counts
    expect(c.created + c.updated + c.stock_only + c.unchanged + c.removed + c.rejected).toBeLessThanOrEqual(view(run()).written)
  })

  it("reads a row stored before items_read existed from its committed pages", () => {
    const v = view(run({}, { items_read: undefined, items_done: 450 }))
    expect(v.read).toBe(400)
    expect(v.written).toBe(400)
  })

  it("has no percent for a changes run or a first sync (no total), and 100 % once succeeded", () => {
    expect(view(run({ mode: "changes" }, { phase: "changes", pass_id: null, expected_total: undefined })).percent).toBeNull()
    expect(view(run({}, { expected_total: null })).percent).toBeNull()
    const done = view(
      run({ status: "succeeded", finished_at: at(60_000), pages: 10, items_seen: 2010 }, { phase: "done", items_done: 2010, items_read: 2010 }),
      T0 + 61_000
    )
    expect(done).toMatchObject({ look: "done", percent: 100, written: 2010, read: 2010, total: 2010, eta_ms: null, ended_recently: true })
  })

  it("stays at 99 % at most while the run goes; past its expected total it has none (see above)", () => {
    expect(view(run({ items_seen: 2000 }, { items_done: 2000, items_read: 2000 })).percent).toBe(99)
    expect(view(run({ items_seen: 2100 }, { items_done: 2100, items_read: 2100 })).percent).toBeNull()
    expect(percentOf(1999, 2000, false)).toBe(99)
    expect(percentOf(1, 2000, true)).toBe(100)
  })
})

describe("progressView: the running look", () => {
  it("is blocked, not running, while the key is refused (whatever the row says)", () => {
    for (const status of ["running", "queued", "failed"]) {
      const v = view(run({ status, pages: 0, items_seen: 0 }, { items_done: 0, items_read: 0 }), T0 + 30_000, { code: "invalid_api_key" })
      expect(v.look).toBe("blocked")
      expect(v.blocked_code).toBe("invalid_api_key")
      expect(v.eta_ms).toBeNull()
    }
  })

  it("waits when queued, pauses at the brake, and ends failed or interrupted without an ETA", () => {
    expect(view(run({ status: "queued", started_at: null })).look).toBe("waiting")
    expect(view(run({ status: "paused" })).look).toBe("paused")
    const failed = view(run({ status: "failed", finished_at: at(40_000) }), T0 + 50_000)
    expect(failed).toMatchObject({ look: "failed", percent: 20, eta_ms: null })
    expect(view(run({ status: "interrupted", finished_at: at(40_000) })).look).toBe("interrupted")
  })

  it("shows a run's end for a while, then no longer", () => {
    const ended = run({ status: "succeeded", finished_at: at(60_000) })
    expect(view(ended, T0 + 60_000 + ENDED_SHOWN_MS - 1).ended_recently).toBe(true)
    expect(view(ended, T0 + 60_000 + ENDED_SHOWN_MS).ended_recently).toBe(false)
    expect(view(run()).ended_recently).toBe(false)
  })

  it("is null without a run", () => {
    expect(progressView({ run: null, blocked: null, now: T0 })).toBeNull()
  })
})

describe("progressView: rate and ETA from this run's own pace", () => {
  it("measures from the first page read, not the run's start (setup excluded)", () => {
    // 400 written 20 s after the first page: 1,200/min; 1,600 left: 80 s.
    const v = view(run(), T0 + 30_000)
    expect(v.rate_per_minute).toBe(1200)
    expect(v.eta_ms).toBe(80_000)
    // Measured from the start (30 s) it would have been 800/min and 120 s: the 10 s of setup are not work.
  })

  it("counts down between two stored figures", () => {
    expect(view(run(), T0 + 35_000).eta_ms).toBe(75_000)
    expect(view(run(), T0 + 500_000).eta_ms).toBe(0)
  })

  it("has no ETA before a page is written or before the basis is long enough", () => {
    expect(view(run({ pages: 0, items_seen: 0 }, { items_done: 0 })).eta_ms).toBeNull()
    const short = run({ updated_at: at(10_000 + ETA_BASIS_MS - 1) })
    expect(view(short).rate_per_minute).toBeNull()
    expect(view(short).eta_ms).toBeNull()
    expect(view(run({ updated_at: at(10_000 + ETA_BASIS_MS) })).eta_ms).not.toBeNull()
  })

  it("has no ETA without a total (a changes run)", () => {
    const v = view(run({ mode: "changes" }, { phase: "changes", pass_id: null }))
    expect(v.rate_per_minute).not.toBeNull()
    expect(v.eta_ms).toBeNull()
  })
})

describe("requestsToday", () => {
  it("is the daily limit less the remaining the catalog's answers carried", () => {
    expect(requestsToday(10_000, 9_972)).toEqual({ used: 28, limit: 10_000 })
    expect(requestsToday(10_000, 0)).toEqual({ used: 10_000, limit: 10_000 })
  })
  it("is unknown without either figure", () => {
    expect(requestsToday(null, 10)).toBeNull()
    expect(requestsToday(10_000, null)).toBeNull()
    expect(requestsToday(0, 0)).toBeNull()
  })
})
