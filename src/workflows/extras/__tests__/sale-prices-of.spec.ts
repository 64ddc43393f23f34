import type { ProductCard } from "../../../catalog-client/schemas"
import { mapCardToProduct } from "../../../sync/map-card"
import { categoryIdsFor, salePricesOf, type WrittenProduct } from "../index"

function card(overrides: Partial<ProductCard>): ProductCard {
  return {
    id: "9007199254740993",
    sku: "S-1",
    name: "Н",
    cost_price: "100.00",
    price: "130.00",
    old_price: "162.50",
    in_stock: true,
    sizes: [],
    images: [],
    sync_version: 1,
    ...overrides,
  }
}

function written(c: ProductCard, variantIdsBySize: Record<string, string>): WrittenProduct {
  const input = mapCardToProduct(c, { primaryLanguage: "uk", salesChannelId: null })
  const translations = input.translations
  return { catalogId: c.id, productId: "prod_1", variantIdsBySize, variants: input.variants, brand: null, brandModel: null, translations }
}

describe("salePricesOf", () => {
  it("takes the card's prices for a product without sizes", () => {
    expect(salePricesOf([written(card({}), { "": "var_0" })])).toEqual([{ variantId: "var_0", saleAmount: "130.00" }])
  })

  it("takes each size's own prices, keyed by the trimmed size, and clears sizes without a crossed-out price", () => {
    const c = card({
      sizes: [
        { size: " 42 ", stock: 1, cost_price: "90.00", price: "117.00", old_price: "146.25" },
        { size: "43", stock: 0, cost_price: "95.00", price: "123.50", old_price: null },
        { size: "44", stock: 2, cost_price: null, price: null, old_price: null },
      ],
    })
    expect(salePricesOf([written(c, { "42": "var_42", "43": "var_43", "44": "var_44" })])).toEqual([
      { variantId: "var_42", saleAmount: "117.00" },
      { variantId: "var_43", saleAmount: null },
      { variantId: "var_44", saleAmount: null },
    ])
  })

  it("skips sizes the page did not write", () => {
    const c = card({ sizes: [{ size: "S", stock: 1, price: "1.00", old_price: "2.00" }] })
    expect(salePricesOf([written(c, {})])).toEqual([])
  })
})

describe("categoryIdsFor", () => {
  const refs = { categoryIdByCatalogId: new Map([["12", "pcat_12"]]) }
  it("maps a known category and nothing else", () => {
    expect(categoryIdsFor({ categoryCatalogId: "12" }, refs)).toEqual(["pcat_12"])
    expect(categoryIdsFor({ categoryCatalogId: "13" }, refs)).toEqual([])
    expect(categoryIdsFor({ categoryCatalogId: null }, refs)).toEqual([])
  })
})
