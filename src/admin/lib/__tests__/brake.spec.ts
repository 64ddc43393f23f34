import { decideBrake } from "../../../pricing/brake"
import { brakeHeadline, pausedPhase, pausedRunOf } from "../brake"
import type { Run, SyncStatus } from "../types"

const decision = decideBrake({
  shopCatalogProducts: 10,
  shopPrices: 10,
  removals: [
    { catalog_id: "1", title: "A" },
    { catalog_id: "2", title: "B" },
    { catalog_id: "3", title: "C" },
  ],
  priceChanges: [],
})
const run = {
  id: "csrun_1",
  mode: "changes",
  status: "paused",
  trigger: "schedule",
  brake: { reasons: decision.reasons, preview: decision.preview },
} as unknown as Run
const status = (patch: Partial<SyncStatus>) => ({ state: "idle", running_run: null, last_run: null, ...patch }) as SyncStatus

describe("the brake in the admin", () => {
  it("finds the paused run wherever the status carries it, and nothing when none is paused", () => {
    expect(pausedRunOf(status({ running_run: run }))?.run.id).toBe("csrun_1")
    expect(pausedRunOf(status({ last_run: run }))?.preview?.removals.count).toBe(3)
    expect(pausedRunOf({ ...status({}), paused_run: run } as SyncStatus)?.reasons).toHaveLength(1)
    const { brake, ...bare } = run as Run & { brake: unknown }
    expect(
      pausedRunOf({ ...status({ state: "paused" }), paused: { run_id: run.id, run: bare, brake } } as unknown as SyncStatus)?.preview?.removals.count
    ).toBe(3)
    expect(pausedRunOf(status({ last_run: { ...run, status: "succeeded" } }))).toBeNull()
  })

  it("says why in the brake's own words", () => {
    expect(brakeHeadline(pausedRunOf(status({ last_run: run }))!)).toBe(
      "The safety brake paused this run: it would remove 3 of 10 catalog products (30 %, more than 20 %). None of these products has been removed."
    )
  })

  it("names a paused run's phase by its answer once answered, with the run that carried it out", () => {
    expect(pausedPhase(run)).toEqual({ text: "Paused by the safety brake: waiting for your answer", continued_by: null })
    const answered = (action: string, extra: object) => ({ ...run, brake_resolution: { action, at: "2026-12-06T10:00:00Z", ...extra } }) as Run
    expect(pausedPhase(answered("confirmed", { removals: 3, continued_by: "csrun_2" }))).toEqual({ text: "Removals confirmed", continued_by: "csrun_2" })
    expect(pausedPhase(answered("discarded", { removals: 3 }))).toEqual({ text: "Removals discarded", continued_by: null })
    expect(pausedPhase(answered("confirmed", { removals: 0, price_drops: 2 }))?.text).toBe("Price drops confirmed")
    expect(pausedPhase({ ...run, status: "succeeded" } as Run)).toBeNull()
  })
})
