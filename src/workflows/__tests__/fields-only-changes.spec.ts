import { card } from "../../sync/__tests__/card-fixtures"
import { mapCardToProduct, stockOf } from "../../sync/map-card"
import { productMetadata } from "../../sync/catalog-product"
import type { ProductToUpdate } from "../page-input"
import { fieldsChangedWithoutVariants, fieldsOnlyWrites, productFieldsUpdate, splitFieldsOnly, type LiveProductState } from "../page/fields-only-changes"
import type { LivePricedVariant } from "../page/price-only-changes"

/** A live variant's price set, as the fast paths read it (its base price does not matter here). */
const PRICED = { priceSetId: "pset_1", priceId: null, amount: null }

const FIELDS = { fields: true, variants: false, prices: false }

function product(id: string, extra: Partial<ProductToUpdate> = {}, over: Parameters<typeof card>[0] = {}): ProductToUpdate {
  const c = card({ id, sku: `SKU-${id}`, ...over })
  const input = { ...mapCardToProduct(c, { primaryLanguage: "uk", salesChannelId: "sc_1" }), categoryIds: ["pcat_1"] }
  const keys = input.variants.map((v) => v.sizeKey)
  return {
    catalogId: id,
    productId: `prod_${id}`,
    input,
    stock: stockOf(c),
    variantIds: Object.fromEntries(keys.map((k) => [k, `var_${id}_${k}`])),
    inventoryItemIds: Object.fromEntries(keys.map((k) => [k, `iitem_${id}_${k}`])),
    partsToWrite: FIELDS,
    ...extra,
  }
}

const liveOf = (p: ProductToUpdate): LivePricedVariant[] =>
  p.input.variants.map((v) => ({
    id: p.variantIds[v.sizeKey],
    optionValue: v.optionValue,
    inventoryItemIds: [p.inventoryItemIds[v.sizeKey]],
    basePrice: PRICED,
  }))

const stateOf = (p: ProductToUpdate, over: Partial<LiveProductState> = {}): LiveProductState => ({
  options: [{ title: p.input.optionTitle, values: p.input.variants.map((v) => v.optionValue).sort() }],
  inSalesChannel: true,
  hasShippingProfile: true,
  ...over,
})

describe("field changes without size changes written in bulk", () => {
  it("takes products whose plan changed their fields but not their variants (prices may change too, all set)", () => {
    expect(fieldsChangedWithoutVariants(product("1"))).toBe(true)
    expect(fieldsChangedWithoutVariants(product("1", { partsToWrite: { fields: true, variants: false, prices: true } }))).toBe(true)
    expect(fieldsChangedWithoutVariants(product("1", { partsToWrite: { fields: true, variants: true, prices: false } }))).toBe(false)
    expect(fieldsChangedWithoutVariants(product("1", { partsToWrite: { fields: false, variants: false, prices: true } }))).toBe(false)
    // An adopted leftover: nothing is known, all parts are written.
    expect(fieldsChangedWithoutVariants(product("1", { partsToWrite: undefined }))).toBe(false)
  })

  it("leaves to the update workflow what it would repair, rename or link", () => {
    const ok = product("1")
    const renamedOption = product("2")
    const noChannel = product("3")
    const noProfile = product("4")
    const deleted = product("5")
    const unknown = product("6")
    const products = [ok, renamedOption, noChannel, noProfile, deleted, unknown]
    const live = Object.fromEntries(products.map((p) => [p.productId, liveOf(p)]))
    live[deleted.productId] = live[deleted.productId].slice(1)
    const states = Object.fromEntries(products.filter((p) => p !== unknown).map((p) => [p.productId, stateOf(p)]))
    states[renamedOption.productId] = stateOf(renamedOption, { options: [{ title: "Size", values: ["42"] }] })
    states[noChannel.productId] = stateOf(noChannel, { inSalesChannel: false })
    states[noProfile.productId] = stateOf(noProfile, { hasShippingProfile: false })
    const split = splitFieldsOnly(products, live, states, true)
    expect(split.bulk.map((p) => p.catalogId)).toEqual(["1"])
    expect(split.rest.map((p) => p.catalogId)).toEqual(["2", "3", "4", "5", "6"])
    // Without a shop shipping profile, a product without one is fine (the workflow links none).
    expect(splitFieldsOnly([noProfile], live, states, false).bulk).toHaveLength(1)
  })

  it("writes the product module's update input, minus locked fields (a locked gallery keeps its thumbnail)", () => {
    const p = product("1")
    const all = productFieldsUpdate(p)
    expect(all.columns).toMatchObject({ title: p.input.title, handle: p.input.handle, description: p.input.description, thumbnail: p.input.thumbnail })
    expect(all.columns.metadata).toEqual(productMetadata(p.input))
    expect(all.images).toEqual(p.input.images.map((i) => i.url))
    expect(all.categoryIds).toEqual(["pcat_1"])
    const locked = productFieldsUpdate({ ...p, lockedFields: ["title", "images", "categories"] })
    expect(locked.columns).not.toHaveProperty("title")
    expect(locked.columns).not.toHaveProperty("thumbnail")
    expect(locked).not.toHaveProperty("images")
    expect(locked).not.toHaveProperty("categoryIds")
    expect(locked.columns.description).toBe(p.input.description)
  })

  it("sets base prices only when they changed and are not locked; stock unless locked", () => {
    const fieldsOnly = product("1")
    const withPrices = product("2", { partsToWrite: { fields: true, variants: false, prices: true } })
    const pricesLocked = product("3", { partsToWrite: { fields: true, variants: false, prices: true }, lockedFields: ["prices", "stock"] })
    const { updates, prices, levels } = fieldsOnlyWrites([fieldsOnly, withPrices, pricesLocked])
    expect(updates.map((u) => u.productId)).toEqual(["prod_1", "prod_2", "prod_3"])
    expect(prices).toEqual(withPrices.input.variants.map((v) => ({ variantId: withPrices.variantIds[v.sizeKey], amount: v.amount })))
    expect(levels.map((l) => l.inventoryItemId)).toEqual([
      ...fieldsOnly.input.variants.map((v) => fieldsOnly.inventoryItemIds[v.sizeKey]),
      ...withPrices.input.variants.map((v) => withPrices.inventoryItemIds[v.sizeKey]),
    ])
  })
})
