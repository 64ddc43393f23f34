import { changedKeptVariants, variantFieldsChanged, variantPriceChanged, type StoredVariant, type WantedVariant } from "../kept-variant-changes"

const stored = (over: Partial<StoredVariant> = {}): StoredVariant => ({
  id: "variant_1",
  title: "42",
  sku: "SKU-42",
  variant_rank: 0,
  metadata: { catalog_id: "1", catalog_size: "42", note: "admin" },
  hasPriceSet: true,
  amount: "1300.5",
  ...over,
})
const wanted = (over: Partial<WantedVariant> = {}): WantedVariant => ({
  variantId: "variant_1",
  rank: 0,
  title: "42",
  sku: "SKU-42",
  metadata: { catalog_id: "1", catalog_size: "42" },
  amount: "1300.50",
  ...over,
})

describe("which kept variants a write changes", () => {
  it("the same title, SKU, rank and merged metadata, and the same amount in another form: nothing changed", () => {
    expect(variantFieldsChanged(stored(), wanted())).toBe(false)
    expect(variantPriceChanged(stored(), wanted())).toBe(false)
  })

  it("a field, the rank or a metadata key the merge changes is a change; a key only the shop has is not", () => {
    expect(variantFieldsChanged(stored(), wanted({ title: "42 EU" }))).toBe(true)
    expect(variantFieldsChanged(stored(), wanted({ sku: "SKU-42b" }))).toBe(true)
    expect(variantFieldsChanged(stored(), wanted({ rank: 1 }))).toBe(true)
    expect(variantFieldsChanged(stored(), wanted({ metadata: { catalog_id: "1", catalog_size: "43" } }))).toBe(true)
    expect(variantFieldsChanged(stored({ metadata: { catalog_size: "42", catalog_id: "1" } }), wanted())).toBe(false)
    expect(variantFieldsChanged(undefined, wanted())).toBe(true)
  })

  it("a new amount, a price to add or remove, or no price set yet is a price change", () => {
    expect(variantPriceChanged(stored(), wanted({ amount: "1300.51" }))).toBe(true)
    expect(variantPriceChanged(stored({ amount: null }), wanted())).toBe(true)
    expect(variantPriceChanged(stored(), wanted({ amount: null }))).toBe(true)
    expect(variantPriceChanged(stored({ amount: null }), wanted({ amount: null }))).toBe(false)
    expect(variantPriceChanged(stored({ hasPriceSet: false, amount: null }), wanted({ amount: null }))).toBe(true)
  })

  it("keeps, of each list, only the variants that change", () => {
    const a = wanted({ variantId: "a", amount: "10" })
    const b = wanted({ variantId: "b", title: "new", amount: "10.00" })
    const result = changedKeptVariants([stored({ id: "a" }), stored({ id: "b", amount: "10" })], { fields: [a, b], prices: [a, b] })
    expect(result.fields.map((v) => v.variantId)).toEqual(["b"])
    expect(result.prices.map((v) => v.variantId)).toEqual(["a"])
  })
})
