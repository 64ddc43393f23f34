import { fingerprint, stockFingerprint } from "../fingerprint"
import { mapCardToProduct, stockOf } from "../map-card"
import { planPage, type MapRow } from "../plan-page"
import { withoutStaleCards } from "../stale-cards"
import { card } from "./card-fixtures"

const ctx = { primaryLanguage: "uk" as const, salesChannelId: "sc_1" }

function rowFor(c: ReturnType<typeof card>, over: Partial<MapRow> = {}): MapRow {
  return {
    id: `m${c.id}`,
    catalog_id: c.id,
    product_id: `prod_${c.id}`,
    variant_ids: {},
    inventory_item_ids: {},
    fingerprint: fingerprint(mapCardToProduct(c, ctx)),
    stock_fingerprint: stockFingerprint(stockOf(c), null),
    sync_version: c.sync_version,
    status: "active",
    ...over,
  }
}

describe("withoutStaleCards", () => {
  it("moves cards overtaken since planning (a newer version now in the map) to unchanged, with the row as it is now", () => {
    const fresh = card({ id: "5", sync_version: 3 })
    const changed = card({ id: "6", sync_version: 3, name_uk: "changed" })
    const kept = card({ id: "7", sync_version: 9, name_uk: "kept" })
    const plan = planPage(
      [fresh, changed, kept].map((c) => ({ status: "updated", id: c.id, product: c })),
      [rowFor(card({ id: "6", sync_version: 2 })), rowFor(card({ id: "7", sync_version: 8 }))],
      ctx
    )
    expect(plan.create.map((p) => p.catalogId)).toEqual(["5"])
    expect(plan.update.map((p) => p.catalogId).sort()).toEqual(["6", "7"])
    // Meanwhile another write stored newer versions of 5 and 6.
    const now = [rowFor(card({ id: "5", sync_version: 4 })), rowFor(card({ id: "6", sync_version: 5 })), rowFor(card({ id: "7", sync_version: 8 }))]
    const out = withoutStaleCards(plan, now)
    expect(out.stale.sort()).toEqual(["5", "6"])
    expect(out.plan.create).toEqual([])
    expect(out.plan.update.map((p) => p.catalogId)).toEqual(["7"])
    expect(out.plan.unchanged.map((p) => [p.catalogId, p.row?.id])).toEqual([
      ["5", "m5"],
      ["6", "m6"],
    ])
  })

  it("returns the plan itself when nothing was overtaken", () => {
    const c = card({ id: "5", sync_version: 3 })
    const plan = planPage([{ status: "updated", id: c.id, product: c }], [], ctx)
    expect(withoutStaleCards(plan, [rowFor(card({ id: "5", sync_version: 3 }))]).plan).toBe(plan)
  })
})
