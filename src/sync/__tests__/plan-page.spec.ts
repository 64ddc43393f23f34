import { fingerprint, stockFingerprint } from "../fingerprint"
import { mapCardToProduct, stockOf } from "../map-card"
import * as mapCardModule from "../map-card"
import { isStaleCard, PLAN_SLICE_ITEMS, planPage, planPageInSlices, type MapRow } from "../plan-page"
import { card } from "./card-fixtures"

// Counted, not changed: planPageInSlices's test counts the cards mapped between turns.
jest.mock("../map-card", () => {
  const actual = jest.requireActual("../map-card")
  return { ...actual, mapCardToProduct: jest.fn(actual.mapCardToProduct) }
})

const ctx = { primaryLanguage: "uk" as const, salesChannelId: "sc_1" }

function rowFor(c = card(), over: Partial<MapRow> = {}): MapRow {
  return {
    id: "m1",
    catalog_id: c.id,
    product_id: "prod_1",
    variant_ids: { "42": "v42", "43": "v43" },
    inventory_item_ids: { "42": "i42", "43": "i43" },
    fingerprint: fingerprint(mapCardToProduct(c, ctx)),
    stock_fingerprint: stockFingerprint(stockOf(c), null),
    sync_version: c.sync_version,
    status: "active",
    ...over,
  }
}

describe("planPage", () => {
  it("creates unknown products, skips unchanged ones and routes stock-only changes", () => {
    const known = card()
    const fresh = card({ id: "5", sku: "B" })
    const stockOnly = card({ id: "6", sku: "C" })
    const rows = [rowFor(known), rowFor(stockOnly, { id: "m6" })]
    const stockChanged = { ...stockOnly, sizes: stockOnly.sizes.map((s) => ({ ...s, stock: s.stock + 1 })) }
    const plan = planPage(
      [
        { status: "active", id: known.id, product: known },
        { status: "active", id: fresh.id, product: fresh },
        { status: "updated", id: stockOnly.id, product: stockChanged },
      ],
      rows,
      ctx
    )
    expect(plan.unchanged.map((p) => p.catalogId)).toEqual([known.id])
    expect(plan.create.map((p) => p.catalogId)).toEqual(["5"])
    expect(plan.stockOnly.map((p) => p.catalogId)).toEqual(["6"])
    expect(plan.update).toEqual([])
  })

  it("writes the levels of an unchanged card again when the stock location changed", () => {
    const c = card()
    const row = rowFor(c, { stock_fingerprint: stockFingerprint(stockOf(c), "sloc_old") })
    const same = planPage([{ status: "updated", id: c.id, product: c }], [row], { ...ctx, stockLocationId: "sloc_old" })
    expect(same.unchanged).toHaveLength(1)
    const moved = planPage([{ status: "updated", id: c.id, product: c }], [row], { ...ctx, stockLocationId: "sloc_new" })
    expect(moved.stockOnly.map((p) => p.catalogId)).toEqual([c.id])
    expect(moved.unchanged).toEqual([])
  })

  it("updates changed products and detects size changes", () => {
    const c = card()
    const changed = card({ sizes: [...c.sizes, { size: "44", stock: 1, price: "1.00" }] })
    const plan = planPage([{ status: "updated", id: c.id, product: changed }], [rowFor(c)], ctx)
    expect(plan.update).toHaveLength(1)
    expect(plan.update[0].partsToWrite).toMatchObject({ variants: true, prices: true })
  })

  it("removes active products, ignores removals of unknown or already removed ones", () => {
    const plan = planPage(
      [
        { status: "removed", id: "9223372036854775807" },
        { status: "removed", id: "77" },
        { status: "removed", id: "78" },
      ],
      [rowFor(), rowFor(card({ id: "78" }), { id: "m78", status: "removed" })],
      ctx
    )
    expect(plan.remove.map((r) => r.catalog_id)).toEqual(["9223372036854775807"])
    // The other two removals need nothing: no other part of the plan holds them.
    expect([...plan.create, ...plan.update, ...plan.stockOnly, ...plan.unchanged]).toEqual([])
    expect(plan.rejected).toEqual([])
  })

  it("recreates a product the catalog sends again after removal, and republishes a draft", () => {
    const c = card()
    const plan = planPage([{ status: "updated", id: c.id, product: c }], [rowFor(c, { status: "removed" })], ctx)
    expect(plan.create).toHaveLength(1)
    const draft = planPage([{ status: "updated", id: c.id, product: c }], [rowFor(c, { status: "draft" })], ctx)
    expect(draft.update).toHaveLength(1)
  })

  it("never applies a card older than the one the shop wrote (sync_version), in any status", () => {
    const written = card({ sync_version: 7, name_uk: "newer" })
    const older = card({ sync_version: 6, name_uk: "older" })
    const active = planPage([{ status: "updated", id: older.id, product: older }], [rowFor(written)], ctx)
    expect(active.unchanged.map((p) => p.catalogId)).toEqual([older.id])
    expect([...active.create, ...active.update, ...active.stockOnly]).toEqual([])
    // An older card's stock is not written either, nor is a removed product brought back by it.
    const stockOlder = { ...written, sync_version: 6, sizes: written.sizes.map((s) => ({ ...s, stock: s.stock + 5 })) }
    expect(planPage([{ status: "updated", id: written.id, product: stockOlder }], [rowFor(written)], ctx).unchanged).toHaveLength(1)
    const removed = planPage([{ status: "updated", id: older.id, product: older }], [rowFor(written, { status: "removed" })], ctx)
    expect(removed.create).toEqual([])
    expect(removed.unchanged).toHaveLength(1)
    // The same version still goes through the fingerprints; a newer one is applied.
    const same = card({ sync_version: 7, name_uk: "renamed locally" })
    expect(planPage([{ status: "updated", id: same.id, product: same }], [rowFor(written)], ctx).update).toHaveLength(1)
    const newer = card({ sync_version: 8, name_uk: "newest" })
    expect(planPage([{ status: "updated", id: newer.id, product: newer }], [rowFor(written)], ctx).update).toHaveLength(1)
  })

  it("judges staleness only when both versions are known; the map's version may come as a string", () => {
    expect(isStaleCard(5, "6")).toBe(true)
    expect(isStaleCard(6, "6")).toBe(false)
    expect(isStaleCard(7, 6)).toBe(false)
    expect(isStaleCard(null, 6)).toBe(false)
    expect(isStaleCard(undefined, 6)).toBe(false)
    expect(isStaleCard(5, null)).toBe(false)
  })

  it("keeps only the latest state of an id repeated in one page", () => {
    const a = card({ id: "5", name_uk: "first" })
    const b = card({ id: "5", name_uk: "second" })
    const plan = planPage(
      [
        { status: "active", id: "5", product: a },
        { status: "removed", id: "5" },
        { status: "updated", id: "5", product: b },
      ],
      [],
      ctx
    )
    expect(plan.create).toHaveLength(1)
    expect(plan.create[0].input.title).toBe("second")
  })

  it("of an id repeated in one page with two versions, writes the higher one even when it comes first", () => {
    const v3 = card({ id: "5", sync_version: 3, name_uk: "version 3" })
    const v2 = card({ id: "5", sync_version: 2, name_uk: "version 2" })
    const plan = planPage(
      [
        { status: "updated", id: "5", product: v3 },
        { status: "updated", id: "5", product: v2 },
      ],
      [],
      ctx
    )
    expect(plan.create.map((p) => p.input.title)).toEqual(["version 3"])
  })
})

describe("planPageInSlices", () => {
  /** A page of 203 items: new, unchanged, stock-only, updated, removed, one id twice and a card that fails mapping. */
  function largePage() {
    const items: Parameters<typeof planPage>[0] = []
    const rows: MapRow[] = []
    for (let i = 0; i < 200; i++) {
      const c = card({ id: String(1000 + i), sku: `S${i}` })
      const kind = i % 5
      if (kind === 1) rows.push(rowFor(c, { id: `m${i}` }))
      if (kind === 2) rows.push(rowFor(c, { id: `m${i}`, stock_fingerprint: "old" }))
      if (kind === 3) rows.push(rowFor(c, { id: `m${i}`, fingerprint: "old" }))
      if (kind === 4) {
        rows.push(rowFor(c, { id: `m${i}` }))
        items.push({ status: "removed", id: c.id } as Parameters<typeof planPage>[0][number])
      } else items.push({ status: "active", id: c.id, product: c })
    }
    const twice = card({ id: "1000", sku: "S0-later", title_uk: "later" } as Parameters<typeof card>[0])
    items.push({ status: "updated", id: twice.id, product: twice })
    items.push({ status: "active", id: "9999", product: { ...card({ id: "9999", sku: "X" }), sizes: null } as never })
    items.push({ status: "active", id: "1001", product: card({ id: "1001", sku: "S1" }) })
    return { items, rows }
  }

  it("makes the same plan as planPage, mapping at most 20 cards between two awaited turns of the event loop", async () => {
    const { items, rows } = largePage()
    const whole = planPage(items, rows, ctx)
    // Cards mapped since the last turn: the synchronous work of one slice.
    const mapped = mapCardModule.mapCardToProduct as jest.Mock
    const slices: number[] = []
    let since = 0
    mapped.mockClear()
    const plan = await planPageInSlices(items, rows, ctx, async () => {
      slices.push(mapped.mock.calls.length - since)
      since = mapped.mock.calls.length
    })
    slices.push(mapped.mock.calls.length - since)
    expect(plan).toEqual(whole)
    // 201 distinct ids in slices of PLAN_SLICE_ITEMS; removals map no card.
    expect(slices).toHaveLength(Math.ceil(201 / PLAN_SLICE_ITEMS))
    expect(Math.max(...slices)).toBeLessThanOrEqual(PLAN_SLICE_ITEMS)
    expect(slices.reduce((a, b) => a + b, 0)).toBe(mapped.mock.calls.length)
    expect(whole.create.length + whole.update.length + whole.stockOnly.length + whole.unchanged.length).toBeGreaterThan(100)
    expect(whole.update.length).toBeGreaterThan(30)
    expect(whole.remove.length).toBeGreaterThan(30)
    expect(whole.rejected).toHaveLength(1)
  })
})
