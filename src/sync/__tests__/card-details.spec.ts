import { mapCardDetails, productHandle } from "../card-details"
import { productMetadata } from "../catalog-product"
import { mapCardToProduct } from "../map-card"
import type { ProductCard } from "../../catalog-client/schemas"

function card(overrides: Partial<ProductCard> = {}): ProductCard {
  return {
    id: "9223372036854775807",
    sku: "UA-000123",
    name: "Кросівки",
    name_uk: "Кросівки",
    name_ru: "Кроссовки",
    description_uk: "Опис",
    description_ru: "Описание",
    marketplace_text_uk: "Текст",
    marketplace_text_ru: "Текст ру",
    category_id: "12",
    brand: { id: "5", name: "Nike" },
    brand_model: { id: "77", name: "Air Max 90" },
    attributes: [{ name_uk: "Колір", name_ru: "Цвет", value_uk: "чорний", value_ru: "черный" }],
    material_uk: "бавовна",
    material_ru: "хлопок",
    origin_country: "UA",
    weight_kg: "0.450",
    dimensions_cm: { length: "30.0", width: "20.5", height: "10.0" },
    is_new: true,
    in_stock: true,
    stock: 3,
    cost_price: "1000.00",
    price: "1300.00",
    old_price: "1625.00",
    sizes: [],
    images: [],
    sync_version: 7,
    updated_at: "2026-11-21T05:00:00.000Z",
    ...overrides,
  }
}

/** The product metadata Medusa stores for the card (the descriptive part plus the catalog references). */
function metadataOf(c: ProductCard, primaryLanguage: "uk" | "ru"): Record<string, unknown> {
  return productMetadata(mapCardToProduct(c, { primaryLanguage, salesChannelId: null }))
}

describe("mapCardDetails", () => {
  it("puts the primary language in the typed fields and the other in translations (uk primary)", () => {
    const d = mapCardDetails(card(), { primaryLanguage: "uk" })
    expect(d.title).toBe("Кросівки")
    expect(d.description).toBe("Опис")
    expect(d.material).toBe("бавовна")
    expect(d.translations).toEqual({ "ru-RU": { title: "Кроссовки", description: "Описание", material: "хлопок" } })
    expect(metadataOf(card(), "uk").translations).toEqual({ ru: { title: "Кроссовки", description: "Описание", material: "хлопок" } })
  })

  it("swaps languages when ru is primary", () => {
    const d = mapCardDetails(card(), { primaryLanguage: "ru" })
    expect(d.title).toBe("Кроссовки")
    expect(d.description).toBe("Описание")
    expect(d.material).toBe("хлопок")
    expect(d.translations).toEqual({ "uk-UA": { title: "Кросівки", description: "Опис", material: "бавовна" } })
  })

  it("converts weight to grams and dimensions to millimetres exactly", () => {
    const d = mapCardDetails(card(), { primaryLanguage: "uk" })
    expect(d.weight).toBe(450)
    expect(d.length).toBe(300)
    expect(d.width).toBe(205)
    expect(d.height).toBe(100)
    expect(d.origin_country).toBe("ua")
  })

  it("keeps ids as exact strings and carries everything else in metadata", () => {
    const d = mapCardDetails(card(), { primaryLanguage: "uk" })
    expect(d.categoryCatalogId).toBe("12")
    expect(d.brand).toEqual({ id: "5", name: "Nike" })
    expect(d.brandModel).toEqual({ id: "77", name: "Air Max 90" })
    expect(metadataOf(card(), "uk")).toMatchObject({
      catalog_id: "9223372036854775807",
      sku: "UA-000123",
      is_new: true,
      marketplace_text: { uk: "Текст", ru: "Текст ру" },
      attributes: [{ name_uk: "Колір", name_ru: "Цвет", value_uk: "чорний", value_ru: "черный" }],
      brand: { catalog_id: "5", name: "Nike" },
      brand_model: { catalog_id: "77", name: "Air Max 90" },
      catalog_category_id: "12",
    })
    expect(JSON.stringify(metadataOf(card(), "uk"))).not.toContain("1000.00") // cost stays off the storefront
  })

  it("does not depend on sync_version or stock, so stock-only changes keep the same details", () => {
    const a = mapCardDetails(card(), { primaryLanguage: "uk" })
    const b = mapCardDetails(card({ sync_version: 8, stock: 0, in_stock: false, updated_at: "x" }), { primaryLanguage: "uk" })
    expect(b).toEqual(a)
  })

  it("tolerates a sparse card", () => {
    const sparse = card({
      name_uk: null,
      name_ru: undefined,
      description_uk: "  ",
      description_ru: null,
      marketplace_text_uk: null,
      marketplace_text_ru: null,
      category_id: null,
      brand: null,
      brand_model: null,
      attributes: undefined,
      material_uk: null,
      material_ru: null,
      origin_country: "Ukraine",
      weight_kg: null,
      dimensions_cm: null,
      is_new: undefined,
    })
    const d = mapCardDetails(sparse, { primaryLanguage: "uk" })
    expect(d.title).toBe("Кросівки")
    expect(d.description).toBeNull()
    expect(d.translations["ru-RU"]).toEqual({ title: "Кросівки", description: null, material: null })
    expect([d.weight, d.length, d.width, d.height]).toEqual([null, null, null, null])
    expect(d.origin_country).toBeNull()
    expect(d.extraMetadata.origin_country_raw).toBe("Ukraine")
    expect([d.categoryCatalogId, d.brand, d.brandModel]).toEqual([null, null, null])
  })

  it("makes URL-safe unique handles", () => {
    expect(productHandle(card())).toBe("ua-000123-9223372036854775807")
    expect(productHandle(card({ sku: "№ / _" }))).toBe("catalog-9223372036854775807")
  })
})

describe("variantAmounts", () => {
  const { variantAmounts } = require("../card-details") as typeof import("../card-details")
  it("makes old_price the base (original) and price the sale amount", () => {
    expect(variantAmounts({ price: "1300.00", old_price: "1625.00", cost_price: "1000.00" })).toEqual({ amount: "1625.00", saleAmount: "1300.00" })
  })
  it("has no sale without an old_price above the price", () => {
    expect(variantAmounts({ price: "1300.00", cost_price: "1000.00" })).toEqual({ amount: "1300.00", saleAmount: null })
    expect(variantAmounts({ price: "1300.00", old_price: "1300.00" })).toEqual({ amount: "1300.00", saleAmount: null })
    expect(variantAmounts({ price: "1300.00", old_price: "1200.00" })).toEqual({ amount: "1300.00", saleAmount: null })
  })
  it("is unpriced when the catalog has no price", () => {
    expect(variantAmounts({ price: null, old_price: null, cost_price: null })).toEqual({ amount: null, saleAmount: null })
  })
  it("compares exactly, not as floats", () => {
    expect(variantAmounts({ price: "0.10", old_price: "0.1" })).toEqual({ amount: "0.10", saleAmount: null })
    expect(variantAmounts({ price: "9007199254740993.00", old_price: "9007199254740993.01" })).toEqual({
      amount: "9007199254740993.01",
      saleAmount: "9007199254740993.00",
    })
  })
})
