import type { CatalogProduct } from "../../sync/catalog-product"
import type { ProductVariantsBefore } from "../../sync/variant-changes"
import { variantChanges } from "../../sync/variant-changes"
import { lockUpdates, plannedFieldValues, withoutLockedProductFields, writtenProductFields } from "../locked-update"

const product = (over: Partial<ProductVariantsBefore> = {}): ProductVariantsBefore => ({
  catalogId: "101",
  productId: "prod_1",
  input: {
    catalogId: "101",
    sku: "S",
    syncVersion: 1,
    external_id: "101",
    title: "Кросівки, чорні",
    handle: "krosivky-101",
    description: "<p>catalog</p>",
    subtitle: null,
    status: "published",
    weight: null,
    length: null,
    width: null,
    height: null,
    material: null,
    origin_country: null,
    images: [{ url: "https://cdn/1.png" }, { url: "https://cdn/2.png" }],
    optionTitle: "Розмір",
    thumbnail: "https://cdn/1.png",
    extraMetadata: {},
    categoryIds: ["pcat_1"],
    variants: [
      { sizeKey: "42", title: "42", sku: "S-42", optionValue: "42", amount: "1300.00", saleAmount: null, metadata: {} },
      { sizeKey: "43", title: "43", sku: "S-43", optionValue: "43", amount: "1350.00", saleAmount: null, metadata: {} },
    ],
    salesChannelId: null,
    translations: {},
    categoryCatalogId: null,
    brand: null,
    brandModel: null,
    // A column added to the description later is absent here (undefined: left alone), as locks do not read it.
  } as CatalogProduct,
  stock: { "42": 3, "43": 1 },
  variantIds: { "42": "variant_42" },
  inventoryItemIds: { "42": "iitem_42" },
  ...over,
})

describe("lockUpdates", () => {
  it("passes products without locks unchanged and holds nothing", () => {
    const p = product()
    expect(lockUpdates([p], {})).toEqual({ products: [p], held: [] })
  })

  it("marks locked fields and hands back the catalog's values; new sizes are not held", () => {
    const { products, held } = lockUpdates([product()], { prod_1: ["title", "images", "prices", "stock"] })
    expect(products[0].lockedFields).toEqual(["title", "images", "prices", "stock"])
    expect(held).toEqual([
      {
        productId: "prod_1",
        catalogId: "101",
        held: { title: "Кросівки, чорні", images: ["https://cdn/1.png", "https://cdn/2.png"], prices: { "42": "1300.00" }, stock: { "42": 3 } },
      },
    ])
  })

  it("holds only what the update writes: a price-only change holds no title", () => {
    const { held } = lockUpdates([product({ partsToWrite: { fields: false, variants: false, prices: true } })], { prod_1: ["title"] })
    expect(held).toEqual([])
    expect(plannedFieldValues(product({ partsToWrite: { fields: false, variants: false, prices: true } })).title).toBeUndefined()
  })
})

describe("what the update writes of a locked product", () => {
  it("leaves locked product fields out (a locked gallery keeps its thumbnail)", () => {
    const fields = { title: "t", description: "d", images: [], thumbnail: "x", category_ids: [], handle: "h", status: "published" }
    expect(withoutLockedProductFields(fields, ["title", "images", "prices"])).toEqual({ description: "d", category_ids: [], handle: "h", status: "published" })
    expect(withoutLockedProductFields(fields, [])).toBe(fields)
  })

  it("writes no price or stock level of a kept size, but prices and stocks a new size", () => {
    const [locked] = lockUpdates([product()], { prod_1: ["prices", "stock"] }).products
    const changes = variantChanges([locked])
    expect(changes.keptPrices).toEqual([])
    expect(changes.keptLevels).toEqual([])
    expect(changes.added.map((a) => [a.sizeKey, a.amount, a.quantity])).toEqual([["43", "1350.00", 1]])
    const open = variantChanges([product()])
    expect(open.keptPrices.map((k) => k.variantId)).toEqual(["variant_42"])
    expect(open.keptLevels).toEqual([{ inventoryItemId: "iitem_42", quantity: 3 }])
  })

  it("records as written only the unlocked product fields, none when product fields are not written", () => {
    expect(writtenProductFields({ ...product(), lockedFields: ["title"] })).toEqual({
      description: "<p>catalog</p>",
      images: ["https://cdn/1.png", "https://cdn/2.png"],
      categories: ["pcat_1"],
    })
    expect(writtenProductFields(product({ partsToWrite: { fields: false, variants: true, prices: true } }))).toEqual({})
  })
})
