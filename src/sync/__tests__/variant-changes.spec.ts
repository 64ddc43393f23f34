import { mapCardToProduct, stockOf } from "../map-card"
import { variantChanges } from "../variant-changes"
import { card } from "./engine-fixtures"

const ctx = { primaryLanguage: "uk" as const, salesChannelId: "sc" }

describe("variantChanges", () => {
  it("keeps variants of sizes still sold, adds gained sizes and removes lost ones", () => {
    const c = card({
      sizes: [
        { size: "43", stock: 2, price: "10.00" },
        { size: "44", stock: 7, price: "11.00" },
      ],
    })
    const { details: _d, ...input } = mapCardToProduct(c, ctx)
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
