import { card } from "../../sync/__tests__/card-fixtures"
import { mapCardToProduct, stockOf } from "../../sync/map-card"
import type { ProductToUpdate } from "../page-input"
import type { LiveProductState } from "../page/fields-only-changes"
import type { LivePricedVariant } from "../page/price-only-changes"
import { sizeChangeWrites, sizesChanged, splitSizeChanges, withoutBlocked, writtenSizeChange } from "../page/size-changes"

/** A live variant's price set, as the fast paths read it (its base price does not matter here). */
const PRICED = { priceSetId: "pset_1", priceId: null, amount: null }

const SIZES = { fields: false, variants: true, prices: true }
type Size = { size: string; stock: number; cost_price: string; price: string }
const size = (s: string, stock = 1): Size => ({ size: s, stock, cost_price: "1000.00", price: "1300.00" })

/** A product that had sizes `was` (map ids by size) and now has `now`. */
function product(id: string, was: string[], now: Size[], extra: Partial<ProductToUpdate> = {}): ProductToUpdate {
  const c = card({ id, sku: `SKU-${id}`, sizes: now })
  const input = { ...mapCardToProduct(c, { primaryLanguage: "uk", salesChannelId: "sc_1" }), categoryIds: ["pcat_1"] }
  return {
    catalogId: id,
    productId: `prod_${id}`,
    input,
    stock: stockOf(c),
    variantIds: Object.fromEntries(was.map((k) => [k, `var_${id}_${k}`])),
    inventoryItemIds: Object.fromEntries(was.map((k) => [k, `iitem_${id}_${k}`])),
    partsToWrite: SIZES,
    ...extra,
  }
}

/** The shop holds exactly the map's variants, each on its size value, priced, with its item. */
const liveOf = (p: ProductToUpdate): LivePricedVariant[] =>
  Object.entries(p.variantIds).map(([k, id]) => ({ id, optionValue: k, inventoryItemIds: [p.inventoryItemIds[k]], basePrice: PRICED }))

const stateOf = (p: ProductToUpdate, over: Partial<LiveProductState> = {}): LiveProductState => ({
  options: [{ title: p.input.optionTitle, values: Object.keys(p.variantIds).sort() }],
  inSalesChannel: true,
  hasShippingProfile: true,
  ...over,
})

const NONE = { takenSkus: new Set<string>() }

describe("size changes written in bulk", () => {
  it("takes products whose plan changed their sizes", () => {
    expect(sizesChanged(product("1", ["42", "43"], [size("42")]))).toBe(true)
    expect(sizesChanged(product("1", ["42"], [size("42")], { partsToWrite: { fields: true, variants: false, prices: true } }))).toBe(false)
    // An adopted leftover: nothing is known, all parts are written by the workflow.
    expect(sizesChanged(product("1", ["42"], [size("42")], { partsToWrite: undefined }))).toBe(false)
  })

  it("removes the base price of a kept size the catalog no longer prices, and gives a new unpriced size an empty price set", () => {
    const p = product("1", ["42", "43"], [size("42"), size("43"), size("44")])
    p.input.variants = p.input.variants.map((v) => (v.sizeKey === "43" || v.sizeKey === "44" ? { ...v, amount: null } : v))
    const split = splitSizeChanges([p], { [p.productId]: liveOf(p) }, { [p.productId]: stateOf(p) }, true)
    const { changes, prices, unpriced } = sizeChangeWrites(split.bulk)
    expect(prices.map((x) => x.variantId)).toEqual(["var_1_42"])
    expect(unpriced).toEqual(["var_1_43"])
    expect(changes[0].added.map((a) => [a.sku, a.amount])).toEqual([["SKU-1-44", null]])
    // Locked prices: kept sizes get neither.
    const locked = sizeChangeWrites(
      splitSizeChanges([{ ...p, lockedFields: ["prices"] }], { [p.productId]: liveOf(p) }, { [p.productId]: stateOf(p) }, true).bulk
    )
    expect([locked.prices, locked.unpriced]).toEqual([[], []])
  })

  it("plans exactly the update workflow's changes: lost sizes removed, new ones added in size order, kept ones updated", () => {
    const p = product("1", ["42", "43"], [size("41", 7), size("42", 2)])
    const split = splitSizeChanges([p], { [p.productId]: liveOf(p) }, { [p.productId]: stateOf(p) }, true)
    expect(split.rest).toEqual([])
    const { changes, prices, levels, updates } = sizeChangeWrites(split.bulk)
    expect(changes).toEqual([
      expect.objectContaining({
        productId: "prod_1",
        optionTitle: p.input.optionTitle,
        removedVariantIds: ["var_1_43"],
        values: ["41", "42"],
        kept: [expect.objectContaining({ variantId: "var_1_42", rank: 1, sku: "SKU-1-42" })],
        added: [expect.objectContaining({ rank: 0, sku: "SKU-1-41", optionValue: "41", stock: 7, amount: p.input.variants[0].amount })],
      }),
    ])
    expect(prices).toEqual([{ variantId: "var_1_42", amount: p.input.variants[1].amount }])
    expect(levels).toEqual([{ inventoryItemId: "iitem_1_42", quantity: 2 }])
    expect(updates).toEqual([])
    // The product map gets the new size's ids, and the lost size is gone from it.
    expect(writtenSizeChange(split.bulk[0], [{ variantId: "var_new", inventoryItemId: "iitem_new" }])).toEqual({
      catalogId: "1",
      productId: "prod_1",
      variantIds: { "41": "var_new", "42": "var_1_42" },
      inventoryItemIds: { "41": "iitem_new", "42": "iitem_1_42" },
    })
  })

  it("writes product fields when they changed too, and no kept prices or stock where locked", () => {
    const p = product("1", ["42"], [size("42"), size("43")], {
      partsToWrite: { fields: true, variants: true, prices: true },
      lockedFields: ["prices", "stock", "title"],
    })
    const split = splitSizeChanges([p], { [p.productId]: liveOf(p) }, { [p.productId]: stateOf(p) }, true)
    const { changes, prices, levels, updates } = sizeChangeWrites(split.bulk)
    expect(prices).toEqual([])
    expect(levels).toEqual([])
    expect(changes[0].added.map((a) => a.stock)).toEqual([1])
    expect(updates).toHaveLength(1)
    expect(updates[0].columns).not.toHaveProperty("title")
  })

  it("leaves to the update workflow what it would repair, relabel, adopt, link or refuse", () => {
    const ok = product("1", ["42", "43"], [size("42"), size("44")])
    const renamedOption = product("2", ["42"], [size("42"), size("43")])
    const noChannel = product("3", ["42"], [size("43")])
    const foreignVariant = product("4", ["42"], [size("42"), size("43")])
    const relabeled = product("5", ["42"], [size("42"), size("43")])
    const unpricedKept = product("6", ["42"], [size("42"), size("43")])
    const noItem = product("7", ["42"], [size("42"), size("43")])
    const products = [ok, renamedOption, noChannel, foreignVariant, relabeled, unpricedKept, noItem]
    const live = Object.fromEntries(products.map((p) => [p.productId, liveOf(p)]))
    live[foreignVariant.productId].push({ id: "var_admin", optionValue: "99", inventoryItemIds: [], basePrice: PRICED })
    live[relabeled.productId][0] = { ...live[relabeled.productId][0], optionValue: "42 EU" }
    live[unpricedKept.productId][0] = { ...live[unpricedKept.productId][0], basePrice: null }
    live[noItem.productId][0] = { ...live[noItem.productId][0], inventoryItemIds: [] }
    const states = Object.fromEntries(products.map((p) => [p.productId, stateOf(p)]))
    states[renamedOption.productId] = stateOf(renamedOption, { options: [{ title: "Size", values: ["42"] }] })
    states[noChannel.productId] = stateOf(noChannel, { inSalesChannel: false })
    const split = splitSizeChanges(products, live, states, true)
    expect(split.bulk.map((b) => b.item.catalogId)).toEqual(["1"])
    expect(split.rest.map((p) => p.catalogId)).toEqual(["2", "3", "4", "5", "6", "7"])
  })

  it("leaves to the update workflow a new size whose SKU the shop already has (a lost reserved size stays: the bulk writer keeps it for its order)", () => {
    const reserved = product("1", ["42", "43"], [size("42")])
    const taken = product("2", ["42"], [size("42"), size("43")])
    const fine = product("3", ["42"], [size("42"), size("43")])
    const products = [reserved, taken, fine]
    const split = splitSizeChanges(
      products,
      Object.fromEntries(products.map((p) => [p.productId, liveOf(p)])),
      Object.fromEntries(products.map((p) => [p.productId, stateOf(p)])),
      true
    )
    expect(split.bulk).toHaveLength(3)
    const left = withoutBlocked(split, { takenSkus: new Set(["SKU-2-43"]) })
    expect(left.bulk.map((b) => b.item.catalogId)).toEqual(["1", "3"])
    expect(left.rest.map((p) => p.catalogId)).toEqual(["2"])
    expect(withoutBlocked(split, NONE).bulk).toHaveLength(3)
  })
})
