import {
  chipShown,
  chipText,
  changesLine,
  changesText,
  countsText,
  didText,
  elapsedMs,
  etaText,
  isMoving,
  liveBlockShown,
  phaseText,
  progressHeadline,
  progressPollMs,
  type ProgressView,
} from "../progress"
import { runDisplayState } from "../../../sync/run-display-state"

const view = (over: Partial<ProgressView> = {}): ProgressView => ({
  run_id: "run_1",
  mode: "full",
  status: "running",
  trigger: "manual",
  look: "running",
  display: { state: "running", label: "Running", color: "blue", moving: true },
  phase: "full_export",
  read: 800,
  written: 400,
  total: 2000,
  total_source: "last_full_pass",
  outgrown_total: null,
  percent: 20,
  pages: 2,
  counts: { created: 0, updated: 190, stock_only: 10, unchanged: 200, removed: 0, rejected: 0, swept: 0 },
  rate_per_minute: 1200,
  eta_ms: 80_000,
  started_at: "2026-11-23T10:00:00.000Z",
  finished_at: null,
  elapsed_ms: 30_000,
  ended_recently: false,
  error_code: null,
  blocked_code: null,
  ...over,
})

const SUCCEEDED = { state: "succeeded", label: "Succeeded", color: "green", moving: false } as const

describe("a run before its first page", () => {
  it('names the queued phase in words and says it waits to start, never "queued" or "page 0"', () => {
    const queued = view({
      mode: "changes",
      phase: "queued",
      display: { state: "continuing", label: "Continuing after your confirm", color: "blue", moving: true },
      read: 0,
      written: 0,
      pages: 0,
      total: null,
      percent: null,
      rate_per_minute: null,
      eta_ms: null,
    })
    expect(phaseText(queued)).toBe("Waiting to start")
    expect(progressHeadline(queued)).toEqual({ state: "Changes · Continuing after your confirm", phase: "Waiting to start" })
    // Issue 43 (second review): a run that has not started says so once, in its headline; no zero
    // counts line, no zero changes line, no "no known length" under it.
    const counts = { created: 0, updated: 0, stock_only: 0, unchanged: 0, removed: 0, rejected: 0, swept: 0 }
    expect(countsText({ ...queued, counts })).toBeNull()
    expect(changesLine({ ...queued, counts })).toBeNull()
    expect(etaText({ ...queued, counts }, 0, 0)).toBeNull()
    expect(countsText({ ...queued, counts, phase: "starting" })).toBeNull()
    const waiting = { ...queued, counts, look: "waiting" as const, phase: null, total: 159, total_source: "last_full_pass" as const, percent: 0 }
    // Issue 43 (review of the admin): the badge is the state, the headline what will happen.
    expect(progressHeadline(waiting)).toEqual({
      state: "Changes · Continuing after your confirm: it will read what changed in the catalog since the last sync once the sync's worker starts it",
      phase: null,
    })
    // A known total is shown from the first moment, once, with no zero read and no zero changes line.
    expect(countsText(waiting)).toBe("0 of 159 products checked (0 %) · 0 read")
    expect(changesLine(waiting)).toBeNull()
    // Once it began its work (preparing the shop), the line tells where it is.
    expect(countsText({ ...queued, counts, phase: "setup" })).toBe("0 products checked, a changes run has no known length · 0 read · no page read yet")
    expect(changesLine({ ...queued, counts, phase: "setup" })).toBe("0 created · 0 updated · 0 removed")
    expect(countsText({ ...queued, phase: "changes", read: 50 })).toBe(
      "0 products checked, a changes run has no known length · 50 read · writing the first page"
    )
  })
})

describe("a run that ended without reading a product (issue 43, second review)", () => {
  const counts = { created: 0, updated: 0, stock_only: 0, unchanged: 0, removed: 0, rejected: 0, swept: 0 }
  const nothing = {
    mode: "changes",
    phase: "changes",
    read: 0,
    written: 0,
    pages: 0,
    total: null,
    percent: null,
    rate_per_minute: null,
    eta_ms: null,
    counts,
  } as const
  it("shows no counts line and no changes line under its error", () => {
    for (const look of ["failed", "interrupted", "blocked"] as const) {
      const v = view({ ...nothing, look, status: look === "interrupted" ? "interrupted" : "failed" })
      expect(countsText(v)).toBeNull()
      expect(changesLine(v)).toBeNull()
    }
  })
  it("a failed run that read or changed something keeps its figures", () => {
    const v = view({ ...nothing, look: "failed", status: "failed", read: 40, pages: 1, written: 40, counts: { ...counts, updated: 40 } })
    expect(countsText(v)).toContain("40 read")
    expect(changesLine(v)).toBe("0 created · 40 updated · 0 removed")
  })
})

describe("the chip and the page read the same view", () => {
  it("show the same percent: the chip's words and the page's counts carry the view's figure", () => {
    const v = view()
    expect(chipText(v)).toBe("Catalog sync 20 %")
    expect(countsText(v)).toBe("400 of 2,000 products checked (20 %) · 800 read · page 2 · 1,200 products/min")
  })

  it("say 100 % and the run's state name when the run ended", () => {
    const done = view({
      look: "done",
      status: "succeeded",
      display: SUCCEEDED,
      percent: 100,
      total: 2010,
      written: 2010,
      read: 2010,
      eta_ms: null,
      ended_recently: true,
    })
    expect(chipText(done)).toBe("Catalog sync 100 % · succeeded")
    expect(countsText(done)).toBe("2,010 of 2,010 products checked (100 %) · 190 updated · 10 stock only · 200 unchanged · page 2 · 1,200 products/min")
    expect(phaseText(done)).toBe("Finished")
    expect(chipShown(done)).toBe(true)
    expect(chipShown({ ...done, ended_recently: false })).toBe(false)
    expect(liveBlockShown(done)).toBe(false)
  })

  it('say what a run that read nothing did, never "0 of 0 products written"', () => {
    const ended = { look: "done" as const, status: "succeeded", percent: 100, total: 0, written: 0, read: 0, pages: 0, eta_ms: null, rate_per_minute: null }
    const counts = { created: 0, updated: 0, stock_only: 0, unchanged: 0, removed: 450, rejected: 0, swept: 0 }
    expect(countsText(view({ ...ended, counts }))).toBe("450 products removed; no product to write")
    expect(countsText(view({ ...ended, counts: { ...counts, removed: 0 } }))).toBeNull()
  })

  it("say what a changes run did, never a percent of a total it does not have", () => {
    const done = view({
      mode: "changes",
      phase: "changes",
      look: "done",
      status: "succeeded",
      display: SUCCEEDED,
      percent: 100,
      total: 52,
      written: 52,
      read: 52,
      eta_ms: null,
    })
    const counts = { created: 1, updated: 12, stock_only: 3, unchanged: 36, removed: 0, rejected: 0, swept: 2 }
    expect(chipText(view({ ...done, counts }))).toBe("Catalog sync · succeeded · 1 created · 12 updated · 3 stock only · 2 removed")
    expect(countsText(view({ ...done, counts }))).toBe(
      "52 products checked · 1 created · 12 updated · 3 stock only · 2 removed · 36 unchanged · page 2 · 1,200 products/min"
    )
    // One product is "1 product", never "1 products".
    expect(countsText(view({ ...done, total: 1, written: 1, read: 1, counts: { ...counts, created: 0, updated: 1, unchanged: 0 } }))).toMatch(
      /^1 product checked · 1 updated · /
    )
    expect(countsText(view({ ...done, mode: "full", phase: "full_export", total: 1, written: 1, read: 1, counts }))).toMatch(
      /^1 of 1 product checked \(100 %\)/
    )
    expect(didText(view({ ...done, counts: { ...counts, created: 0, stock_only: 0, swept: 0 } }))).toBe("12 updated")
  })

  it("name the state once in the progress block's headline, the phase only while it says more", () => {
    expect(progressHeadline(view())).toEqual({ state: "Full resync · Running", phase: "Reading the whole catalog" })
    const quiet = view({
      mode: "changes",
      look: "done",
      status: "succeeded",
      display: { state: "no_changes", label: "No changes", color: "grey", moving: false },
    })
    expect(progressHeadline(quiet)).toEqual({ state: "Changes · No changes", phase: null })
    expect(countsText({ ...quiet, read: 0 })).toBeNull()
    expect(countsText(quiet)).toBeNull()
    // A full resync that changed nothing went through the whole catalog: it says so.
    const checked = view({
      mode: "full",
      look: "done",
      status: "succeeded",
      display: { state: "no_changes", label: "No changes", color: "grey", moving: false },
      percent: 100,
      total: 1500,
      written: 1500,
      read: 1500,
    })
    expect(progressHeadline(checked)).toEqual({ state: "Full resync · No changes", phase: null })
    expect(countsText(checked)).toContain("1,500 of 1,500 products checked (100 %)")
  })

  it("say no changes, not 100 % done, after a poll that changed nothing", () => {
    const quiet = view({
      look: "done",
      status: "succeeded",
      display: { state: "no_changes", label: "No changes", color: "grey", moving: false },
      percent: 100,
      total: 0,
      written: 0,
      read: 0,
      counts: { created: 0, updated: 0, stock_only: 0, unchanged: 0, removed: 0, rejected: 0, swept: 0 },
      ended_recently: true,
    })
    expect(chipText(quiet)).toBe("Catalog sync · no changes")
    expect(phaseText(quiet)).toBe("Finished: no changes")
  })

  it("count updated and stock only apart, as the run's counts do", () => {
    expect(changesText(view())).toBe("0 created · 190 updated · 10 stock only · 0 removed")
  })

  it("have no running look while the key is refused, the run is paused or waits", () => {
    for (const look of ["blocked", "paused", "waiting"] as const) {
      const v = view({ look, eta_ms: null })
      expect(isMoving(v)).toBe(false)
      expect(etaText(v, 0, 0)).toBeNull()
      expect(chipShown(v)).toBe(true)
      expect(chipText(v)).not.toMatch(/%|read|written/)
    }
    expect(chipText(view({ look: "blocked", blocked_code: "invalid_api_key" }))).toBe("Catalog sync · key refused")
    expect(phaseText(view({ look: "blocked", blocked_code: "invalid_api_key" }))).toBe("Stopped: the catalog refused the key")
  })
})

describe('"written" only for what a run wrote (issue 43)', () => {
  const noChanges = { state: "no_changes" as const, label: "No changes", color: "grey" as const, moving: false }
  const succeeded = { state: "succeeded" as const, label: "Succeeded", color: "green" as const, moving: false }
  const ended = { look: "done" as const, status: "succeeded", eta_ms: null, rate_per_minute: null, ended_recently: true }
  const none = { created: 0, updated: 0, stock_only: 0, unchanged: 0, removed: 0, rejected: 0, swept: 0 }

  it("a full pass that changed nothing went through the catalog: checked, not written", () => {
    const v = view({ ...ended, display: noChanges, percent: 100, total: 550, written: 550, read: 550, pages: 3, counts: { ...none, unchanged: 550 } })
    expect(countsText(v)).toBe("550 of 550 products checked (100 %) · page 3")
    expect(progressHeadline(v)).toEqual({ state: "Full resync · No changes", phase: null })
  })

  it("a reprice that left some prices as they were: priced, then what it updated and what it left", () => {
    const v = view({
      ...ended,
      mode: "reprice",
      phase: "reprice",
      display: succeeded,
      percent: 100,
      total: 800,
      written: 800,
      read: 800,
      pages: 4,
      counts: { ...none, updated: 793, unchanged: 7 },
    })
    expect(countsText(v)).toBe("800 of 800 products priced (100 %) · 793 updated · 7 unchanged · page 4")
    // While it goes: how far it has got; what it changed so far has its own line.
    expect(countsText(view({ mode: "reprice", phase: "reprice", total: 800, written: 400, read: 400, percent: 50 }))).toMatch(
      /^400 of 800 products priced \(50 %\) · /
    )
  })

  it("a full pass with changes: checked, then what it changed", () => {
    const v = view({
      ...ended,
      display: succeeded,
      percent: 100,
      total: 1500,
      written: 1500,
      read: 1500,
      pages: 8,
      counts: { ...none, created: 3, updated: 12, unchanged: 1485 },
    })
    expect(countsText(v)).toBe("1,500 of 1,500 products checked (100 %) · 3 created · 12 updated · 1,485 unchanged · page 8")
  })

  it("a running run without a total, and the chip that shows it, count products checked", () => {
    const v = view({ mode: "changes", phase: "changes", total: null, percent: null, written: 1200, read: 1400 })
    expect(countsText(v)).toBe("1,200 products checked, a changes run has no known length · 1,400 read · page 2 · 1,200 products/min")
    expect(chipText(v)).toBe("Catalog sync · 1,200 checked")
  })

  it("a full pass that read past its estimate (the catalog grew) shows no total nor percent on any screen (issue 43, third review)", () => {
    const v = view({ total: null, percent: null, eta_ms: null, total_source: null, outgrown_total: 728, written: 800, read: 1_000 })
    expect(countsText(v)).toBe(
      "800 products checked, total not known yet: the catalog has grown past the 728 expected · 1,000 read · page 2 · 1,200 products/min"
    )
    expect(chipText(v)).toBe("Catalog sync · 800 checked")
    expect(etaText(v, 0, 0)).toMatch(/^The catalog has grown since the last estimate/)
    expect(etaText(v, 0, 0)).not.toMatch(/First full pass/)
  })

  it("never calls a product written on any line", () => {
    const views = [
      view(),
      view({ total: null, percent: null }),
      view({ ...ended, display: noChanges, percent: 100, total: 550, written: 550, read: 550 }),
      view({
        ...ended,
        mode: "reprice",
        display: succeeded,
        percent: 100,
        total: 800,
        written: 800,
        read: 800,
        counts: { ...none, updated: 793, unchanged: 7 },
      }),
      view({ ...ended, mode: "changes", display: succeeded, percent: 100, total: 52, written: 52, read: 52, counts: { ...none, updated: 12, unchanged: 40 } }),
    ]
    for (const v of views) {
      expect(countsText(v) ?? "").not.toMatch(/written/)
      expect(chipText(v)).not.toMatch(/written/)
    }
  })
})

describe("the ETA, printed once", () => {
  it("counts down from when the view arrived, never below zero", () => {
    expect(etaText(view(), 1_000, 1_000)).toBe("About 1 min 20 s left")
    expect(etaText(view(), 6_000, 1_000)).toBe("About 1 min 15 s left")
    expect(etaText(view(), 500_000, 1_000)).toBe("Almost done")
  })

  it("says why there is none yet instead of guessing", () => {
    expect(etaText(view({ eta_ms: null }), 0, 0)).toBe("Estimating the time left from this run's pace…")
    expect(etaText(view({ eta_ms: null, total: null, percent: null }), 0, 0)).toMatch(/size is not known yet/)
    expect(etaText(view({ eta_ms: null, total: null, percent: null, mode: "changes", phase: "changes" }), 0, 0)).toMatch(/changes run/)
  })

  it("appears in no other line", () => {
    expect(countsText(view())).not.toMatch(/left/)
    expect(chipText(view())).not.toMatch(/left/)
  })
})

describe("the timer", () => {
  it("ticks while the run moves and stands still once it does not", () => {
    expect(elapsedMs(view(), 3_000, 1_000)).toBe(32_000)
    expect(elapsedMs(view({ look: "done" }), 3_000, 1_000)).toBe(30_000)
  })
})

describe("polling", () => {
  it("is fast while a run goes or waits, slow otherwise", () => {
    expect(progressPollMs(view())).toBe(2_000)
    expect(progressPollMs(view({ look: "waiting" }))).toBe(2_000)
    expect(progressPollMs(view({ look: "blocked" }))).toBe(15_000)
    expect(progressPollMs(null)).toBe(15_000)
  })
})

describe("a queued run (issue 43, review of the admin)", () => {
  const queued = (mode: ProgressView["mode"]) =>
    view({
      mode,
      status: "queued",
      look: "waiting",
      display: { state: "queued", label: "Queued", color: "grey", moving: false },
      phase: null,
      read: 0,
      written: 0,
      pages: 0,
      percent: null,
      rate_per_minute: null,
      eta_ms: null,
    })

  it("its badge is the state, Queued, and its headline says what will happen, never the badge's words again", () => {
    const run = runDisplayState({ status: "queued" })
    expect(run.label).toBe("Queued")
    for (const mode of ["full", "changes", "reprice"] as const) {
      const headline = progressHeadline(queued(mode))
      expect(headline.state).not.toBe(run.label)
      expect(headline.state).not.toMatch(/^(Queued|Waiting to start)$/)
      expect(headline.state).toMatch(/ once the sync's worker starts it$/)
    }
    expect(progressHeadline(queued("full")).state).toBe(
      "Full resync · Queued: it will read the whole catalog and bring the shop in line with it once the sync's worker starts it"
    )
    expect(progressHeadline(queued("reprice")).state).toBe(
      "Reprice (no API requests) · Queued: it will reprice the shop's products from their stored costs once the sync's worker starts it"
    )
    // The chip names the state as the badge does.
    expect(chipText(queued("changes"))).toBe("Catalog sync · queued")
  })
})
