// The removal brake of a run: cumulative share, approvals, discards, and what it remembers.
import { DEFAULT_BRAKE_THRESHOLDS } from "../../pricing/brake"
import type { MapRow, PagePlan, PlannedUpsert } from "../plan-page"
import { answeredMemory, brakeMemoryOf, EMPTY_BRAKE_MEMORY, SafetyBrake, type CurrentPrice } from "../safety-brake"

const row = (id: string): MapRow => ({
  id: `m${id}`,
  catalog_id: id,
  product_id: `p${id}`,
  variant_ids: null,
  inventory_item_ids: null,
  fingerprint: null,
  stock_fingerprint: null,
  sync_version: 1,
  status: "active",
})
const page = (remove: string[], seen: string[] = []): PagePlan => ({
  create: [],
  update: seen.map(
    (id) => ({ catalogId: id, partsToWrite: { fields: true, variants: false, prices: false }, input: { variants: [] } }) as unknown as PlannedUpsert
  ),
  stockOnly: [],
  unchanged: [],
  remove: remove.map(row),
  rejected: [],
})
const ids = (from: number, n: number) => Array.from({ length: n }, (_, i) => String(from + i))

describe("SafetyBrake over removals", () => {
  it("never writes or judges a page's removals with the page: they come back to be held, however many", () => {
    const brake = new SafetyBrake(100, 0, DEFAULT_BRAKE_THRESHOLDS, EMPTY_BRAKE_MEMORY)
    const checked = brake.check(page(ids(1, 60), ["99"]))
    expect(checked.pause).toBeUndefined()
    expect(checked.plan?.remove).toEqual([])
    expect(checked.plan?.update.map((p) => p.catalogId)).toEqual(["99"])
    expect(checked.held?.map((r) => r.catalog_id)).toEqual(ids(1, 60))
  })

  it("discarded removals are not held and are forgotten when the product comes back", () => {
    const brake = new SafetyBrake(10, 0, DEFAULT_BRAKE_THRESHOLDS, { ...EMPTY_BRAKE_MEMORY, approved: ["1", "2", "3"], discarded: ["7", "8"] })
    const checked = brake.check(page(["1", "2", "3", "7"], ["8"]))
    expect(checked.held?.map((r: MapRow) => r.catalog_id)).toEqual(["1", "2", "3"])
    expect(checked.plan?.remove).toEqual([])
    expect([...brake.discarded]).toEqual(["7"])
    expect(brake.memoryAfterRun()).toEqual({ approved: [], discarded: ["7"], approved_drops: {}, discarded_drops: {} })
  })

  it("the run's held removals are judged together by their count (strictly over the threshold pauses); the preview samples them", () => {
    const brake = new SafetyBrake(100, 0, DEFAULT_BRAKE_THRESHOLDS, EMPTY_BRAKE_MEMORY)
    expect(
      brake.checkRemovals(
        20,
        ids(1, 20).map((id) => ({ catalog_id: id }))
      )
    ).toBeNull()
    expect(brake.checkRemovals(0, [])).toBeNull()
    const paused = brake.checkRemovals(
      45,
      ids(16, 3).map((id) => ({ catalog_id: id, product_id: `p${id}` }))
    )
    expect(paused?.reasons.map((r) => r.code)).toEqual(["removals"])
    expect(paused?.preview.removals).toMatchObject({ count: 45, share_percent: "45.00" })
    expect(paused?.preview.removals.sample).toEqual(ids(16, 3).map((id) => ({ catalog_id: id, product_id: `p${id}` })))
    expect(new SafetyBrake(0, 0, DEFAULT_BRAKE_THRESHOLDS, EMPTY_BRAKE_MEMORY).checkRemovals(50, [])).toBeNull()
  })

  it("a shop with no catalog products (first sync) never pauses; memory reads defensively", () => {
    expect(new SafetyBrake(0, 0, DEFAULT_BRAKE_THRESHOLDS, EMPTY_BRAKE_MEMORY).check(page(ids(1, 50))).plan).toBeDefined()
    expect(brakeMemoryOf(null)).toEqual(EMPTY_BRAKE_MEMORY)
    expect(brakeMemoryOf({ approved: ["1", 2], discarded: "x", approved_drops: { "1:M": "10.00", "2:": 3 }, discarded_drops: [] })).toEqual({
      ...EMPTY_BRAKE_MEMORY,
      approved: ["1"],
      approved_drops: { "1:M": "10.00" },
    })
  })
})

// A product of one size "M" whose price goes from `from` to `to` (an update that writes prices).
const priced = (id: string, to: string): PlannedUpsert =>
  ({
    catalogId: id,
    input: {
      title: `Product ${id}`,
      variants: [{ sizeKey: "M", amount: to, saleAmount: null, priced: { cost: "1", amount: to, crossedOut: null, categoryPath: [], brandId: null } }],
    },
    partsToWrite: { fields: false, variants: false, prices: true },
  }) as unknown as PlannedUpsert
const dropPage = (ids: string[], to: string): PagePlan => ({
  create: [],
  update: ids.map((id) => priced(id, to)),
  stockOnly: [],
  unchanged: [],
  remove: [],
  rejected: [],
})
const pricesNow = (ids: string[], amount: string) =>
  new Map<string, CurrentPrice>(ids.map((id) => [`${id}:M`, { variant_id: `v${id}`, amount, crossed_out: null }]))

describe("SafetyBrake over steep price drops", () => {
  it("pauses when more than 10 % of the shop's prices would drop by more than 30 %, cumulatively, with titles and before → after", () => {
    const brake = new SafetyBrake(100, 100, DEFAULT_BRAKE_THRESHOLDS, EMPTY_BRAKE_MEMORY)
    // Drops of exactly 30 % do not count; 8 steep drops are 8 %: written.
    expect(brake.check(dropPage(ids(1, 50), "70.00"), pricesNow(ids(1, 50), "100.00")).plan).toBeDefined()
    const first = brake.check(dropPage(ids(51, 8), "10.00"), pricesNow(ids(51, 8), "100.00"))
    expect(first.plan?.update[0].input.variants[0].amount).toBe("10.00")
    brake.written()
    const second = brake.check(dropPage(ids(59, 3), "10.00"), pricesNow(ids(59, 3), "100.00"))
    expect(second.pause?.reasons.map((r) => r.code)).toEqual(["price_drops"])
    expect(second.pause?.preview.steep_drops).toMatchObject({ count: 11, share_percent: "11.00" })
    expect(second.pause?.preview.steep_drops.sample[0]).toMatchObject({ title: "Product 51", size: "M", from: "100.00", to: "10.00", drop_percent: "90.00" })
    expect(second.pause?.price_drops).toEqual({ "59:M": "10.00", "60:M": "10.00", "61:M": "10.00" })
  })

  it("confirmed drops pass; discarded ones keep the old price until the catalog's price moves again", () => {
    const all = ids(1, 20)
    const confirmed = answeredMemory(EMPTY_BRAKE_MEMORY, "confirmed", [], Object.fromEntries(all.map((id) => [`${id}:M`, "10.00"])))
    const approvedRun = new SafetyBrake(100, 100, DEFAULT_BRAKE_THRESHOLDS, confirmed)
    expect(approvedRun.check(dropPage(all, "10.00"), pricesNow(all, "100.00")).plan?.update[0].input.variants[0].amount).toBe("10.00")
    // Another drop of the same sizes is not what was approved.
    expect(new SafetyBrake(100, 100, DEFAULT_BRAKE_THRESHOLDS, confirmed).check(dropPage(all, "5.00"), pricesNow(all, "100.00")).pause).toBeDefined()
    expect(approvedRun.memoryAfterRun()).toEqual(EMPTY_BRAKE_MEMORY)

    const discarded = answeredMemory(confirmed, "discarded", [], Object.fromEntries(all.map((id) => [`${id}:M`, "10.00"])))
    expect(discarded.approved_drops).toEqual({})
    const keptRun = new SafetyBrake(100, 100, DEFAULT_BRAKE_THRESHOLDS, discarded)
    const kept = keptRun.check(dropPage(all, "10.00"), pricesNow(all, "100.00")).plan!
    expect(kept.update.map((p) => [p.input.variants[0].amount, p.input.variants[0].priced?.amount])).toEqual(all.map(() => ["100.00", "100.00"]))
    expect(keptRun.memoryAfterRun()).toBeNull()
    // The catalog's price moved again: judged anew (and forgotten as discarded).
    const moved = new SafetyBrake(100, 100, DEFAULT_BRAKE_THRESHOLDS, discarded)
    expect(moved.check(dropPage(all, "9.00"), pricesNow(all, "100.00")).pause).toBeDefined()
    expect(moved.checkPriceChanges([]).keep?.size).toBe(0)
  })
})

describe("what the removals' share is of (issue 43, review of the admin)", () => {
  it("the preview records the base and the kept products it leaves out, as the run computed them", () => {
    // 70 of 300 held from the catalog; 5 kept by a discard and 2 for open orders are not in the 300.
    const brake = new SafetyBrake(300, 0, DEFAULT_BRAKE_THRESHOLDS, EMPTY_BRAKE_MEMORY, { kept_by_discard: 5, kept_for_orders: 2 })
    const paused = brake.checkRemovals(70, [{ catalog_id: "1" }])
    expect(paused?.preview.removals.base).toEqual({ products: 300, kept_by_discard: 5, kept_for_orders: 2 })
    expect(paused?.preview.removals.share_percent).toBe("23.33")
    expect(paused?.reasons[0].message).toBe("would remove 70 of 300 catalog products (23.3 %, more than 20 %)")
  })
})
