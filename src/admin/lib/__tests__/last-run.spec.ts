import { decideBrake } from "../../../pricing/brake"
import { lastRunSection, lastRunTime } from "../last-run"
import type { Run, SyncStatus } from "../types"
import { runFixture } from "./run-fixture"

const status = (patch: Partial<SyncStatus>) => ({ state: "idle", running_run: null, last_run: null, next_run_at: null, ...patch }) as SyncStatus
// The last finished run: a scheduled changes poll that changed nothing, at 08:00.
const finished = runFixture({ created_at: "2026-12-06T08:00:00.000Z" })
const decision = decideBrake({
  shopCatalogProducts: 100,
  shopPrices: 100,
  removals: Array.from({ length: 30 }, (_, i) => ({ catalog_id: String(i + 1), title: `P${i + 1}` })),
  priceChanges: [],
})
// A newer run, paused at 09:00 by the brake: it would remove 30 of 100 products.
const pausedRun = {
  ...runFixture({ id: "csrun_2", mode: "full", status: "paused", created_at: "2026-12-06T09:00:00.000Z", started_at: "2026-12-06T09:00:00.000Z" }),
  brake: { reasons: decision.reasons, preview: decision.preview },
} as Run
const pausedStatus = (patch: Partial<SyncStatus> = {}) =>
  ({
    ...status({ state: "paused", last_run: finished, ...patch }),
    paused: { run_id: pausedRun.id, run: pausedRun, brake: (pausedRun as Run & { brake: unknown }).brake },
  }) as SyncStatus
const relative = (iso: string) => `at ${iso.slice(11, 16)}`
const dateTime = (iso: string) => iso.slice(0, 10)

describe('the sync page\'s "Last run" (issue 43)', () => {
  it("is the last run while no newer run exists", () => {
    const section = lastRunSection(status({ last_run: finished }))
    expect(section).toMatchObject({ run: finished, heading: "Last run", newer: null })
    expect(lastRunTime(section, relative, dateTime)).toBe("at 08:01 · 2026-12-06")
  })

  it("beside a newer run paused at the safety brake, is the last finished run, with its time and what the pause waits for", () => {
    const section = lastRunSection(pausedStatus())
    expect(section.run).toBe(finished)
    expect(section.heading).toBe("Last finished run")
    expect(section.newer).toBe("A newer run waits for your answer at the safety brake: it would remove 30 products.")
    expect(lastRunTime(section, relative, dateTime)).toBe("finished at 08:01 · 2026-12-06")
  })

  it("says the newer pause even when no run has finished yet", () => {
    const section = lastRunSection(pausedStatus({ last_run: null }))
    expect(section).toMatchObject({ run: null, heading: "Last finished run", empty: "No sync has finished yet." })
    expect(section.newer).toMatch(/^A newer run waits for your answer/)
  })

  it("beside a newer run going or queued, is the last finished run", () => {
    const live = runFixture({ id: "csrun_3", status: "running", created_at: "2026-12-06T09:30:00.000Z", finished_at: null })
    expect(lastRunSection(status({ state: "running", last_run: finished, running_run: live }))).toMatchObject({
      heading: "Last finished run",
      newer: "A newer run is going on.",
    })
    expect(lastRunSection(status({ last_run: finished, running_run: { ...live, status: "queued" } })).newer).toBe("A newer run waits to start.")
  })

  it("an answered pause, or a pause older than the last finished run, is no newer run", () => {
    // Once answered, the paused run no longer waits: the run that carried the answer out is the last.
    const answered = { ...status({ last_run: finished }), paused: null, paused_run: { ...pausedRun, brake_resolution: { action: "discarded" } } } as SyncStatus
    expect(lastRunSection(answered)).toMatchObject({ heading: "Last run", newer: null })
    const later = runFixture({ id: "csrun_4", created_at: "2026-12-06T10:00:00.000Z" })
    expect(lastRunSection(pausedStatus({ last_run: later }))).toMatchObject({ run: later, heading: "Last run", newer: null })
  })
})
