import { planProductRows } from "../../../bulk-write"
import { card } from "../../../sync/__tests__/card-fixtures"
import { mapCardToProduct, stockOf } from "../../../sync/map-card"
import { CURRENCY_CODE, productMetadata } from "../../../sync/catalog-product"
import { productFields, type ProductToCreate } from "../../page-input"
import { bulkPlacementOf, bulkProductOf, createdProductOf, refusedByProductModule } from "../bulk-new-products"

const ctx = { primaryLanguage: "uk" as const, salesChannelId: "sc_1" }
const placement = { salesChannelId: "sc_1", stockLocationId: "sloc_1", shippingProfileId: "sp_1" }

function toCreate(over: Parameters<typeof card>[0] = {}): ProductToCreate {
  const c = card(over)
  const input = { ...mapCardToProduct(c, ctx), categoryIds: ["pcat_1"] }
  return { catalogId: input.catalogId, input, stock: stockOf(c) }
}

describe("a new product as the bulk writer's input", () => {
  it("carries every product field the core-flows writer's create writes, under the bulk writer's names", () => {
    const p = toCreate()
    const bulk = bulkProductOf(p)
    const fields = productFields(p.input) as Record<string, unknown>
    const asBulk: Record<string, unknown> = {
      ...bulk,
      images: bulk.images.map((url) => ({ url })),
      category_ids: bulk.categoryIds,
    }
    // No field of the workflow's product input is missing or different.
    for (const [key, value] of Object.entries(fields)) expect([key, asBulk[key]]).toEqual([key, value])
    expect(bulk.metadata).toEqual(productMetadata(p.input))
    expect(bulk.metadata).toMatchObject({ catalog_sync: true, catalog_id: p.catalogId })
  })

  it("has the size option in size order, one variant per size with its SKU, price, stock, metadata and item title", () => {
    const p = toCreate()
    const bulk = bulkProductOf(p)
    const { input, stock } = p
    expect(bulk.options).toEqual([{ title: input.optionTitle, values: input.variants.map((v) => v.optionValue) }])
    expect(bulk.variants).toEqual(
      input.variants.map((v) => ({
        title: v.title,
        sku: v.sku,
        options: { [input.optionTitle]: v.optionValue },
        amount: v.amount,
        stock: stock[v.sizeKey],
        metadata: v.metadata,
        inventoryTitle: `${input.title} ${v.title}`,
      }))
    )
    expect(bulk.variants.length).toBeGreaterThan(1)
    expect(bulk.variants.every((v) => typeof v.stock === "number")).toBe(true)
  })

  it("stocks a size the stock input does not list at 0, as the workflow does", () => {
    const p = toCreate()
    const first = p.input.variants[0].sizeKey
    const { [first]: _dropped, ...rest } = p.stock
    expect(bulkProductOf({ ...p, stock: rest }).variants[0].stock).toBe(0)
  })

  it("takes the first image as thumbnail when there is none, as the product module does", () => {
    const p = toCreate()
    expect(bulkProductOf({ ...p, input: { ...p.input, thumbnail: null } }).thumbnail).toBe(p.input.images[0].url)
    expect(bulkProductOf({ ...p, input: { ...p.input, thumbnail: "https://shop/t.jpg" } }).thumbnail).toBe("https://shop/t.jpg")
    expect(bulkProductOf({ ...p, input: { ...p.input, thumbnail: null, images: [] } }).thumbnail).toBeNull()
  })

  it("prices in the plugin's currency", () => {
    expect(bulkPlacementOf(placement)).toEqual({ ...placement, currencyCode: CURRENCY_CODE })
  })

  it("leaves to the workflow what the product module refuses before the database", () => {
    const p = toCreate()
    expect(refusedByProductModule(p)).toBe(false)
    expect(refusedByProductModule({ ...p, input: { ...p.input, title: "" } })).toBe(true)
    expect(refusedByProductModule({ ...p, input: { ...p.input, handle: "Upper-Case" } })).toBe(true)
    expect(refusedByProductModule({ ...p, input: { ...p.input, handle: "two  spaces" } })).toBe(true)
    const [a, b] = p.input.variants
    expect(refusedByProductModule({ ...p, input: { ...p.input, variants: [a, { ...b, optionValue: a.optionValue }] } })).toBe(true)
    expect(refusedByProductModule({ ...p, input: { ...p.input, variants: [a, { ...b, optionValue: "" }] } })).toBe(true)
  })

  it("maps the writer's result back to size keys: variant and inventory item ids", () => {
    const p = toCreate()
    const { created } = planProductRows([bulkProductOf(p)], bulkPlacementOf(placement))
    const result = createdProductOf(p, created[0])
    expect(result.catalogId).toBe(p.catalogId)
    expect(result.productId).toBe(created[0].productId)
    expect(Object.keys(result.variantIds)).toEqual(p.input.variants.map((v) => v.sizeKey))
    p.input.variants.forEach((v, i) => {
      expect(result.variantIds[v.sizeKey]).toBe(created[0].variants[i].variantId)
      expect(result.inventoryItemIds[v.sizeKey]).toBe(created[0].variants[i].inventoryItemId)
    })
  })

  it("refuses a result whose variants are not the product's", () => {
    const p = toCreate()
    const { created } = planProductRows([bulkProductOf(p)], bulkPlacementOf(placement))
    const swapped = { ...created[0], variants: [...created[0].variants].reverse() }
    expect(() => createdProductOf(p, swapped)).toThrow(/was not created/)
  })
})
