// What both update paths record in the product map after the sizes changed: kept sizes keep
// their ids, sizes the card no longer has are dropped, added and repaired ones take the new ids.
import type { ProductToUpdate } from "../page-input"
import { updatedProductIds } from "../update-sizes-first"

const product = (catalogId: string, sizes: string[], variantIds: Record<string, string>, inventoryItemIds: Record<string, string>): ProductToUpdate =>
  ({
    catalogId,
    productId: `prod_${catalogId}`,
    input: { variants: sizes.map((sizeKey) => ({ sizeKey })) },
    variantIds,
    inventoryItemIds,
  }) as unknown as ProductToUpdate

describe("updatedProductIds", () => {
  it("keeps wanted sizes, drops lost ones, and gives added and repaired sizes their new ids on the right product", () => {
    const products = [
      product("a", ["40", "41", "42"], { "39": "v_a39", "40": "v_a40", "41": "v_a41" }, { "39": "i_a39", "40": "i_a40" }),
      product("b", ["S", "M"], { S: "v_bS" }, { S: "i_bS" }),
    ]
    const changes = {
      added: [
        { catalogId: "b", sizeKey: "M" },
        { catalogId: "a", sizeKey: "42" },
      ],
      keptWithoutInventory: [{ catalogId: "a", sizeKey: "41" }],
    } as never
    const written = updatedProductIds(products, changes, { variantIds: ["v_bM", "v_a42"], itemIds: ["i_bM", "i_a42"] }, ["i_a41"])
    expect(written).toEqual([
      {
        catalogId: "a",
        productId: "prod_a",
        variantIds: { "40": "v_a40", "41": "v_a41", "42": "v_a42" },
        inventoryItemIds: { "40": "i_a40", "41": "i_a41", "42": "i_a42" },
      },
      { catalogId: "b", productId: "prod_b", variantIds: { S: "v_bS", M: "v_bM" }, inventoryItemIds: { S: "i_bS", M: "i_bM" } },
    ])
  })
})
