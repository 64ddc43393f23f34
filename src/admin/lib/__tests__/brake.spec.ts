import { decideBrake } from "../../../pricing/brake"
import { brakeHeadline, pausedRunOf } from "../brake"
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
      "The safety brake paused this run: it would remove 3 of 10 catalog products (30.00 %, more than 20 %). None of these products has been removed."
    )
  })
})
