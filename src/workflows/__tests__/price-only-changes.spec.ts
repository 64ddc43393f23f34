import { PendingEvents } from "../../bulk-write/events"
import type { ProductToUpdate } from "../page-input"
import { priceOnlyWrites, pricesOnlyChanged, splitPriceOnly, writtenPriceOnly, type LivePricedVariant } from "../page/price-only-changes"

/** A live variant's price set, as the fast paths read it (its base price does not matter here). */
const PRICED = { priceSetId: "pset_1", priceId: null, amount: null }

const PRICE_ONLY = { fields: false, variants: false, prices: true }

function product(id: string, sizes: Record<string, string | null>, extra: Partial<ProductToUpdate> = {}): ProductToUpdate {
  const keys = Object.keys(sizes)
  return {
    catalogId: `c${id}`,
    productId: `prod_${id}`,
    input: { optionTitle: "Розмір", variants: keys.map((k) => ({ sizeKey: k, optionValue: k, amount: sizes[k] })) } as never,
    stock: Object.fromEntries(keys.map((k, i) => [k, i + 1])),
    variantIds: Object.fromEntries(keys.map((k) => [k, `var_${id}_${k}`])),
    inventoryItemIds: Object.fromEntries(keys.map((k) => [k, `iitem_${id}_${k}`])),
    partsToWrite: PRICE_ONLY,
    ...extra,
  }
}

/** The shop holding exactly what the map names. */
const liveOf = (p: ProductToUpdate): LivePricedVariant[] =>
  Object.keys(p.variantIds).map((k) => ({ id: p.variantIds[k], optionValue: k, inventoryItemIds: [p.inventoryItemIds[k]], basePrice: PRICED }))

describe("price-only changes written in bulk", () => {
  it("takes only products whose plan changed nothing but prices, every size priced", () => {
    expect(pricesOnlyChanged(product("1", { "42": "100.00" }))).toBe(true)
    expect(pricesOnlyChanged(product("1", { "42": "100.00" }, { partsToWrite: { fields: true, variants: false, prices: true } }))).toBe(false)
    expect(pricesOnlyChanged(product("1", { "42": "100.00" }, { partsToWrite: { fields: false, variants: true, prices: true } }))).toBe(false)
    expect(pricesOnlyChanged(product("1", { "42": "100.00", "43": null }))).toBe(false)
    expect(pricesOnlyChanged(product("1", { "42": "100.00" }, { partsToWrite: undefined }))).toBe(false)
  })

  it("leaves to the update workflow what it would repair: a deleted or extra variant, a renamed size, no price set, no inventory", () => {
    const ok = product("ok", { "42": "1", "43": "2" })
    const deleted = product("del", { "42": "1", "43": "2" })
    const extra = product("extra", { "42": "1" })
    const renamed = product("ren", { "42": "1" })
    const unpriced = product("nps", { "42": "1" })
    const noItem = product("noi", { "42": "1" })
    const live = {
      [ok.productId]: liveOf(ok),
      [deleted.productId]: liveOf(deleted).slice(0, 1),
      [extra.productId]: [...liveOf(extra), { id: "var_extra_99", optionValue: "99", inventoryItemIds: [], basePrice: PRICED }],
      [renamed.productId]: liveOf(renamed).map((v) => ({ ...v, optionValue: "42 EU" })),
      [unpriced.productId]: liveOf(unpriced).map((v) => ({ ...v, basePrice: null })),
      [noItem.productId]: liveOf(noItem).map((v) => ({ ...v, inventoryItemIds: [] })),
    }
    const split = splitPriceOnly([ok, deleted, extra, renamed, unpriced, noItem], live)
    expect(split.bulk.map((p) => p.catalogId)).toEqual(["cok"])
    expect(split.rest.map((p) => p.catalogId)).toEqual(["cdel", "cextra", "cren", "cnps", "cnoi"])
  })

  it("writes each size's base price and stock level, but no price where prices are locked and no level where stock is", () => {
    const free = product("1", { "42": "1300.50", "43": "99" })
    const pricesLocked = product("2", { "": "10" }, { lockedFields: ["prices"] })
    const stockLocked = product("3", { "": "20" }, { lockedFields: ["stock"] })
    expect(priceOnlyWrites([free, pricesLocked, stockLocked])).toEqual({
      prices: [
        { variantId: "var_1_42", amount: "1300.50" },
        { variantId: "var_1_43", amount: "99" },
        { variantId: "var_3_", amount: "20" },
      ],
      levels: [
        { inventoryItemId: "iitem_1_42", quantity: 1 },
        { inventoryItemId: "iitem_1_43", quantity: 2 },
        { inventoryItemId: "iitem_2_", quantity: 1 },
      ],
    })
  })

  it("returns the ids the update workflow would: the product's current sizes only", () => {
    const p = product("1", { "42": "1" }, { variantIds: { "42": "var_a", "41": "var_gone" }, inventoryItemIds: { "42": "iitem_a", "41": "iitem_gone" } })
    expect(writtenPriceOnly(p)).toEqual({ catalogId: "c1", productId: "prod_1", variantIds: { "42": "var_a" }, inventoryItemIds: { "42": "iitem_a" } })
  })

  it("marks the bulk writer's product.updated events as the sync's own (auto-lock skips them), and only those", () => {
    const events = new PendingEvents()
    events.add("product.updated", ["prod_1"])
    events.add("product.created", ["prod_2"])
    expect(events.messages()).toEqual([
      { name: "product.updated", data: { id: "prod_1", catalog_sync_write: true } },
      { name: "product.created", data: { id: "prod_2" } },
    ])
  })
})
