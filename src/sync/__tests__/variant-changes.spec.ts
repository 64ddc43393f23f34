import { mapCardToProduct, stockOf } from "../map-card"
import { reconcileWithShop, variantChanges } from "../variant-changes"
import { card } from "./card-fixtures"

const ctx = { primaryLanguage: "uk" as const, salesChannelId: "sc" }

describe("variantChanges", () => {
  it("keeps variants of sizes still sold, adds gained sizes and removes lost ones", () => {
    const c = card({
      sizes: [
        { size: "43", stock: 2, price: "10.00" },
        { size: "44", stock: 7, price: "11.00" },
      ],
    })
    const input = mapCardToProduct(c, ctx)
    const changes = variantChanges([
      {
        catalogId: c.id,
        productId: "prod_1",
        input,
        stock: stockOf(c),
        variantIds: { "42": "v42", "43": "v43" },
        inventoryItemIds: { "42": "i42", "43": "i43" },
      },
    ])
    expect(changes.removedVariantIds).toEqual(["v42"])
    expect(changes.kept).toEqual([expect.objectContaining({ variantId: "v43", amount: "10.00", sku: "UA-000123-43" })])
    expect(changes.keptLevels).toEqual([{ inventoryItemId: "i43", quantity: 2 }])
    expect(changes.added).toEqual([expect.objectContaining({ productId: "prod_1", sizeKey: "44", optionValue: "44", amount: "11.00", quantity: 7 })])
  })
})

describe("reconcileWithShop", () => {
  const c = card({
    sizes: [
      { size: "40", stock: 2, price: "10.00" },
      { size: "41", stock: 3, price: "11.00" },
    ],
  })
  const input = mapCardToProduct(c, ctx)
  const before = { catalogId: c.id, productId: "prod_1", input, stock: stockOf(c), partsToWrite: { fields: false, variants: false, prices: true } }

  it("the shop wins over the map: deleted ids are dropped, a crash-made variant is adopted, strays are removed", () => {
    const r = reconcileWithShop({ ...before, variantIds: { "40": "v40-deleted", "42": "v42-deleted" }, inventoryItemIds: { "40": "i40-deleted" } }, [
      { id: "v40", optionValue: "40", catalogSize: "40", inventoryItemIds: ["i40"] },
      { id: "v41", optionValue: "41", catalogSize: "41", inventoryItemIds: [] },
      { id: "vX", optionValue: "39", catalogSize: "39", inventoryItemIds: ["iX"] },
    ])
    expect(r.variantIds).toEqual({ "40": "v40", "41": "v41" })
    expect(r.inventoryItemIds).toEqual({ "40": "i40" })
    expect(r.staleVariantIds).toEqual(["vX"])
    expect(r.repaired).toBe(true)
    expect(r.partsToWrite).toEqual({ fields: true, variants: true, prices: true })
    const changes = variantChanges([r])
    expect(changes.added).toEqual([])
    expect(changes.removedVariantIds).toEqual(["vX"])
    expect(changes.keptWithoutInventory).toEqual([expect.objectContaining({ variantId: "v41", sizeKey: "41", quantity: 3 })])
    expect(changes.optionValues).toEqual([{ productId: "prod_1", optionTitle: "Розмір", values: ["40", "41"] }])
  })

  it("a map that agrees with the shop is kept as is, and lost sizes are no repair", () => {
    const r = reconcileWithShop(
      { ...before, variantIds: { "40": "v40", "41": "v41", "42": "v42" }, inventoryItemIds: { "40": "i40", "41": "i41", "42": "i42" } },
      [
        { id: "v40", optionValue: "40", catalogSize: "40", inventoryItemIds: ["i40"] },
        { id: "v41", optionValue: "41", catalogSize: "41", inventoryItemIds: ["i41"] },
        { id: "v42", optionValue: "42", catalogSize: "42", inventoryItemIds: ["i42"] },
      ]
    )
    expect(r.repaired).toBe(false)
    expect(r.partsToWrite).toEqual(before.partsToWrite)
    expect(variantChanges([r]).removedVariantIds).toEqual(["v42"])
  })

  it("a map that only lacks a live size (kept for an order, back in the catalog) rewrites variants, prices and stock, not the fields", () => {
    const r = reconcileWithShop({ ...before, variantIds: { "40": "v40" }, inventoryItemIds: { "40": "i40" } }, [
      { id: "v40", optionValue: "40", catalogSize: "40", inventoryItemIds: ["i40"] },
      { id: "v41", optionValue: "41", catalogSize: "41", inventoryItemIds: ["i41"] },
    ])
    expect(r.repaired).toBe(true)
    expect(r.variantIds).toEqual({ "40": "v40", "41": "v41" })
    expect(r.partsToWrite).toEqual({ fields: false, variants: true, prices: true })
    expect(variantChanges([r]).fieldsChanged).toEqual([])
    // Without an item, or with a map that names another variant, everything is rewritten.
    const bare = reconcileWithShop({ ...before, variantIds: { "40": "v40" }, inventoryItemIds: { "40": "i40" } }, [
      { id: "v40", optionValue: "40", catalogSize: "40", inventoryItemIds: ["i40"] },
      { id: "v41", optionValue: "41", catalogSize: "41", inventoryItemIds: [] },
    ])
    expect(bare.partsToWrite).toEqual({ fields: true, variants: true, prices: true })
    const moved = reconcileWithShop({ ...before, variantIds: { "40": "v40-old" }, inventoryItemIds: { "40": "i40" } }, [
      { id: "v40", optionValue: "40", catalogSize: "40", inventoryItemIds: ["i40"] },
      { id: "v41", optionValue: "41", catalogSize: "41", inventoryItemIds: ["i41"] },
    ])
    expect(moved.partsToWrite).toEqual({ fields: true, variants: true, prices: true })
  })

  it("a relabelled option value is matched by the size in the variant's metadata", () => {
    const r = reconcileWithShop({ ...before, variantIds: {}, inventoryItemIds: {} }, [
      { id: "v40", optionValue: "EU 40", catalogSize: "40", inventoryItemIds: ["i40"] },
    ])
    expect(r.variantIds).toEqual({ "40": "v40" })
    expect(variantChanges([r]).added.map((a) => a.sizeKey)).toEqual(["41"])
  })

  it("a variant whose size value was renamed goes back to the catalog's value before the option is pruned", () => {
    // Map and shop agree on the ids and nothing else changed: only the admin's rename differs.
    const r = reconcileWithShop({ ...before, variantIds: { "40": "v40", "41": "v41" }, inventoryItemIds: { "40": "i40", "41": "i41" } }, [
      { id: "v40", optionValue: "40 EU", catalogSize: "40", inventoryItemIds: ["i40"] },
      { id: "v41", optionValue: "41", catalogSize: "41", inventoryItemIds: ["i41"] },
    ])
    expect(r.relabeled).toEqual([{ productId: "prod_1", variantId: "v40", optionTitle: input.optionTitle, from: "40 EU", to: "40" }])
    const changes = variantChanges([r])
    expect(changes.relabeled).toEqual(r.relabeled)
    expect(changes.removedVariantIds).toEqual([])
    // The product's option values are made equal to the sizes, though its variants did not change.
    expect(changes.optionValues).toEqual([{ productId: "prod_1", optionTitle: input.optionTitle, values: ["40", "41"] }])
  })
})
