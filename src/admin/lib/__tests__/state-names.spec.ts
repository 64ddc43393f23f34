// One state, one name and one colour on every screen: every sync state and every run state is
// walked through each screen's helper (the sync page's header badge, the product list's line, the
// top bar's chip, the progress block, the ended-run block, the last run card, the history row and
// the run page's badge), and each must read as the one table (src/sync/state-names.ts) says.
import { progressView, type RunForProgress } from "../../../sync/run-progress"
import { STATE_NAMES, type StateKey } from "../../../sync/state-names"
import { runDisplayState } from "../../../sync/run-display-state"
import { chipBadge, chipShown, chipText, endedBlockShown, endedHeadline, liveBlockShown, progressHeadline, syncStateBadge } from "../progress"
import { runBadge, stateBadge } from "../status"
import { syncSummary } from "../sync-summary"
import type { Run, SyncState, SyncStatus } from "../types"
import { runFixture } from "./run-fixture"

const NOW = Date.parse("2026-12-06T08:01:30.000Z")
const relative = () => "a moment ago"
const status = (patch: Partial<SyncStatus>) => ({ state: "idle", running_run: null, last_run: null, next_run_at: null, ...patch }) as SyncStatus
const name = (key: StateKey) => ({ label: STATE_NAMES[key].label, color: STATE_NAMES[key].color })
const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1)

const SYNC_STATES: SyncState[] = [
  "idle",
  "paused",
  "running",
  "resuming",
  "stalled",
  "overdue",
  "failed",
  "key_invalid",
  "plan_required",
  "not_configured",
  "disabled",
]

/** A stored run row in each run state (run-display-state.ts), ended a moment ago where it ends. */
const RUNS: Record<string, Partial<Run>> = {
  queued: { status: "queued", started_at: null, finished_at: null },
  running: { status: "running", finished_at: null },
  paused: { status: "paused" },
  confirmed: { status: "paused", brake_resolution: { action: "confirmed" } },
  discarded: { status: "paused", brake_resolution: { action: "discarded" } },
  continuing: { status: "running", finished_at: null, progress: { after_brake: "csrun_0", brake_answer: "confirmed" } },
  interrupted: { status: "interrupted" },
  failed: { status: "failed" },
  succeeded: { status: "succeeded", updated: 17, stock_only: 5 },
  no_changes: { status: "succeeded" },
}

describe("one name and one colour per state, on every screen", () => {
  it.each(SYNC_STATES)("the sync state %s reads the same in the header badge, the product list's line and the table", (state) => {
    const expected = name(state)
    expect(stateBadge(state)).toEqual(expected)
    expect(syncStateBadge(status({ state }), null)).toEqual(expected)
    expect(syncSummary(status({ state }), null, null, relative).badge).toEqual(expected)
  })

  it.each(Object.keys(RUNS))("the run state %s reads the same on the chip, the badges, the progress blocks, the history and the run page", (key) => {
    const row = runFixture(RUNS[key])
    const expected = key === "continuing" ? { label: "Continuing after your confirm", color: STATE_NAMES.continuing.color } : name(key as StateKey)
    expect(runDisplayState(row).state).toBe(key)
    // The last run card, the history row and the run page's header all use runBadge.
    expect(runBadge(row)).toEqual(expected)

    const view = progressView({ run: row as unknown as RunForProgress, blocked: null, now: NOW })!
    expect({ label: view.display.label, color: view.display.color }).toEqual(expected)
    // The top bar's chip: its dot's colour, and its words name the state unless it shows a moving percent.
    expect(chipBadge(view)).toEqual(expected)
    if (chipShown(view) && view.look !== "running") expect(chipText(view)).toContain(lower(expected.label))
    // The sync page's progress block and its header badge, the product list's line.
    if (liveBlockShown(view)) {
      expect(progressHeadline(view).state).toContain(expected.label)
      const going = status({ state: "running", running_run: row })
      expect(syncStateBadge(going, view)).toEqual(expected)
      expect(syncSummary(going, view, null, relative).badge).toEqual(expected)
    }
    if (endedBlockShown(view)) {
      expect(endedHeadline(view)).toBe(expected.label)
      // The header names the sync's state that end leaves, from the same table, even while /status trails.
      const after = key === "failed" ? name("failed") : key === "interrupted" ? name("interrupted") : name("idle")
      expect(syncStateBadge(status({ state: "running", running_run: runFixture({ ...RUNS.running }) }), view)).toEqual(after)
      expect(syncStateBadge(status({ state: key === "failed" ? "failed" : "idle", last_run: row }), view)).toEqual(key === "interrupted" ? name("idle") : after)
    }
  })

  it("names the sync's paused state and a paused run alike, and a refused key or plan alike on the chip and the badges", () => {
    expect(stateBadge("paused")).toEqual(runBadge(runFixture({ status: "paused" })))
    const running = runFixture({ status: "running", finished_at: null }) as unknown as RunForProgress
    for (const code of ["plan_required", "key_invalid"] as const) {
      const view = progressView({ run: running, blocked: { code: code === "key_invalid" ? "invalid_api_key" : code }, now: NOW })!
      expect(view.look).toBe("blocked")
      expect(chipBadge(view)).toEqual(name(code))
      expect(chipText(view)).toBe(`Catalog sync · ${lower(STATE_NAMES[code].label)}`)
      expect(syncStateBadge(status({ state: code }), view)).toEqual(name(code))
    }
  })
})

describe("the header badge reads the fresher of /status and /progress", () => {
  const continuing = runFixture({
    id: "csrun_2",
    mode: "changes",
    status: "running",
    finished_at: null,
    progress: { after_brake: "csrun_1", brake_answer: "confirmed" },
  })
  it("never says Running beside a run its block shows ended, while /status still says it runs", () => {
    const ended = progressView({
      run: { ...continuing, status: "succeeded", removed: 60, finished_at: "2026-12-06T08:01:00.000Z" } as unknown as RunForProgress,
      blocked: null,
      now: NOW,
    })!
    const trailing = status({ state: "running", running_run: continuing })
    expect(endedHeadline(ended)).toBe("Succeeded")
    expect(syncStateBadge(trailing, ended)).toEqual(name("idle"))
    expect(syncSummary(trailing, ended, null, relative).badge).toEqual(name("idle"))
    // /status still on the answered pause (it has not seen the continuing run yet): the same.
    const pausedRow = runFixture({ id: "csrun_1", status: "paused", started_at: "2026-12-06T07:59:00.000Z" })
    expect(syncStateBadge({ ...status({ state: "paused" }), paused: { run: pausedRow } } as SyncStatus, ended)).toEqual(name("idle"))
    // Once /status has caught up it says the same.
    expect(syncStateBadge(status({ state: "idle", last_run: continuing }), ended)).toEqual(name("idle"))
  })

  it("keeps /status's word when it knows of a newer run than the view, and the sync's own stops", () => {
    const old = progressView({ run: { ...runFixture({ updated: 3 }) } as unknown as RunForProgress, blocked: null, now: NOW })!
    const newer = runFixture({ id: "csrun_9", status: "running", started_at: "2026-12-06T08:01:20.000Z", finished_at: null })
    expect(syncStateBadge(status({ state: "running", running_run: newer }), old)).toEqual(name("running"))
    expect(syncStateBadge(status({ state: "stalled" }), old)).toEqual(name("stalled"))
    expect(syncStateBadge(status({ state: "key_invalid" }), old)).toEqual(name("key_invalid"))
  })
})
