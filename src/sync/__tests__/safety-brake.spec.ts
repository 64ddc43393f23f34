// The removal brake of a run: cumulative share, approvals, discards, and what it remembers.
import { DEFAULT_BRAKE_THRESHOLDS } from "../../pricing/brake"
import type { MapRow, PagePlan, PlannedUpsert } from "../plan-page"
import { brakeMemoryOf, EMPTY_BRAKE_MEMORY, RemovalBrake } from "../safety-brake"

const row = (id: string): MapRow => ({ id: `m${id}`, catalog_id: id, product_id: `p${id}`, variant_ids: null, inventory_item_ids: null, fingerprint: null, stock_fingerprint: null, sync_version: 1, status: "active" })
const page = (remove: string[], seen: string[] = []): PagePlan => ({
  create: [],
  update: seen.map((id) => ({ catalogId: id }) as PlannedUpsert),
  stockOnly: [],
  unchanged: [],
  remove: remove.map(row),
  rejected: [],
})
const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => String(from + i))

describe("RemovalBrake", () => {
  it("lets through removals up to the threshold (strictly), cumulatively over the run, then pauses with every id of the page", () => {
    const brake = new RemovalBrake(100, DEFAULT_BRAKE_THRESHOLDS, EMPTY_BRAKE_MEMORY)
    const first = brake.check(page(ids(1, 15)))
    expect(first.plan?.remove).toHaveLength(15)
    brake.written(first.plan!)
    expect(brake.check(page(ids(16, 5))).plan).toBeDefined() // 20 of 100: not more than 20 %
    const second = brake.check(page(ids(16, 6)))
    expect(second.pause?.removal_ids).toEqual(ids(16, 6))
    expect(second.pause?.preview.removals).toMatchObject({ count: 21, share_percent: "21.00" })
  })

  it("approved removals do not count; discarded ones are dropped from the plan and forgotten when the product comes back", () => {
    const brake = new RemovalBrake(10, DEFAULT_BRAKE_THRESHOLDS, { approved: ["1", "2", "3"], discarded: ["7", "8"] })
    const checked = brake.check(page(["1", "2", "3", "7"], ["8"]))
    expect(checked.plan?.remove.map((r) => r.catalog_id)).toEqual(["1", "2", "3"])
    expect([...brake.discarded]).toEqual(["7"])
    expect(brake.memoryAfterRun()).toEqual({ approved: [], discarded: ["7"] })
  })

  it("a shop with no catalog products (first sync) never pauses; memory reads defensively", () => {
    expect(new RemovalBrake(0, DEFAULT_BRAKE_THRESHOLDS, EMPTY_BRAKE_MEMORY).check(page(ids(1, 50))).plan).toBeDefined()
    expect(brakeMemoryOf(null)).toEqual(EMPTY_BRAKE_MEMORY)
    expect(brakeMemoryOf({ approved: ["1", 2], discarded: "x" })).toEqual({ approved: ["1"], discarded: [] })
  })
})
