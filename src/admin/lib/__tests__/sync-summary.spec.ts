import { decideBrake } from "../../../pricing/brake"
import { syncStateBadge, type ProgressView } from "../progress"
import { activityText, summaryWarnings, syncSummary } from "../sync-summary"
import type { Run, SyncStatus } from "../types"
import { runFixture } from "./run-fixture"

const relative = (iso: string) => `at ${iso.slice(11, 16)}`
const status = (patch: Partial<SyncStatus>) => ({ state: "idle", running_run: null, last_run: null, next_run_at: null, ...patch }) as SyncStatus
const run = runFixture
const view = (over: Partial<ProgressView>): ProgressView =>
  ({
    run_id: "run_2",
    mode: "full",
    status: "running",
    trigger: "manual",
    look: "running",
    display: { state: "running", label: "Running", color: "blue", moving: true },
    phase: "full_export",
    read: 800,
    written: 400,
    total: 2000,
    percent: 20,
    counts: { created: 0, updated: 0, stock_only: 0, unchanged: 0, removed: 0, rejected: 0, swept: 0 },
    ...over,
  }) as ProgressView

describe("the product list's line about the sync", () => {
  it("names the state as the sync page's header does: the running run's name while it goes, the sync's state otherwise", () => {
    const running = view({})
    expect(syncSummary(status({ state: "running" }), running, null, relative).badge).toEqual({ label: "Running", color: "blue" })
    // A refused key is the sync's state whatever the run row says.
    expect(syncStateBadge(status({ state: "key_invalid" }), running)).toEqual({ label: "Key refused", color: "red" })
    expect(syncSummary(status({ state: "paused" }), null, null, relative).badge).toEqual({ label: "Paused: waiting for your answer", color: "orange" })
  })

  it("says when the sync last ran and what it did, and when the next runs", () => {
    const last = run({ updated: 12, stock_only: 3 })
    const now = Date.parse("2026-12-06T08:05:00.000Z")
    expect(activityText(status({ last_run: last, next_run_at: "2026-12-06T08:10:00.000Z" }), null, relative, now)).toBe(
      "Last synced at 08:01: 12 updated · 3 stock only · next at 08:10"
    )
    // A next run time already past (the scheduler is about to start it) is not "next 2 min ago".
    expect(activityText(status({ last_run: last, next_run_at: "2026-12-06T08:03:00.000Z" }), null, relative, now)).toBe(
      "Last synced at 08:01: 12 updated · 3 stock only"
    )
    // While a run waits for the answer, no next time: nothing runs until the answer.
    expect(activityText(status({ state: "paused", last_run: last, next_run_at: "2026-12-06T08:10:00.000Z" }), null, relative, now)).toBe(
      "Last synced at 08:01: 12 updated · 3 stock only"
    )
    expect(activityText(status({ last_run: run({}) }), null, relative)).toBe("Last synced at 08:01: no changes")
    expect(activityText(status({ state: "failed", last_run: run({ status: "failed" }) }), null, relative)).toBe("Last sync failed at 08:01")
    expect(activityText(status({}), null, relative)).toBe("No sync has finished yet.")
    expect(activityText(status({ state: "not_configured", last_run: null }), null, relative)).toBe("The catalog is not connected yet.")
    // After a disconnect there was a connection: not "yet" (issue 43, third review).
    expect(activityText(status({ state: "not_configured", last_run: { id: "run_1" } as never }), null, relative)).toBe(
      "The catalog is disconnected: no API key is saved, so nothing syncs until one is."
    )
  })

  it("says what a running sync does now, with the progress view's figures", () => {
    expect(activityText(status({ state: "running" }), view({}), relative)).toBe("Full resync: reading the whole catalog · 400 of 2,000 products checked (20 %)")
    expect(activityText(status({ state: "running" }), view({ mode: "changes", phase: "changes", total: null, percent: null, written: 40 }), relative)).toBe(
      "Changes: reading what changed since the last sync · 40 products checked"
    )
    expect(activityText(status({ state: "running" }), view({ look: "waiting" }), relative)).toBe("A sync is waiting to start.")
  })

  it("warns of what needs the admin, each with where to act", () => {
    expect(summaryWarnings(status({ state: "key_invalid", last_run: run({ status: "failed", error_code: "invalid_api_key" }) }), null)).toEqual([
      expect.objectContaining({ kind: "blocked", tone: "error", href: "/settings/catalog-sync" }),
    ])
    const failed = summaryWarnings(status({ state: "failed", last_run: run({ id: "csrun_9", status: "failed", error_code: "rate_limited" }) }), null)
    expect(failed).toEqual([
      {
        kind: "failed",
        tone: "error",
        text: "The last sync failed: the catalog is limiting requests for this key. Try again in a minute.",
        href: "/settings/catalog-sync/runs/csrun_9",
        action: "See the run",
      },
    ])
    const decision = decideBrake({
      shopCatalogProducts: 10,
      shopPrices: 10,
      removals: [1, 2, 3].map((n) => ({ catalog_id: String(n), title: `P${n}` })),
      priceChanges: [],
    })
    const paused = run({ id: "csrun_p", status: "paused" }) as Run & { brake: unknown }
    paused.brake = { reasons: decision.reasons, preview: decision.preview }
    const kept = { discarded: 2, open_order: 1, total: 3 }
    expect(summaryWarnings(status({ state: "paused", last_run: paused }), kept)).toEqual([
      {
        kind: "paused",
        tone: "warning",
        text: "A sync waits for your answer: it would remove 3 products.",
        href: "/settings/catalog-sync/runs/csrun_p",
        action: "Answer",
      },
      {
        kind: "kept",
        tone: "warning",
        text: "The shop keeps 3 products the catalog no longer has: 2 by your discard, 1 for open orders.",
        href: "/catalog-sync",
        action: "Review",
      },
    ])
    expect(summaryWarnings(status({ last_run: run({}) }), { discarded: 0, open_order: 0, total: 0 })).toEqual([])
  })
})
