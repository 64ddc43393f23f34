import { linkTableOf } from "../link-tables"

describe("a link's table, as Medusa's link loader names it", () => {
  it("is the table the definition names", () => {
    expect(linkTableOf({ databaseConfig: { tableName: "product_sales_channel" }, relationships: [] })).toBe("product_sales_channel")
  })

  it("is composed from the two sides when the definition names none (defineLink without a table)", () => {
    // The plugin's product ↔ catalog brand link: the table its migration made.
    const brand = {
      relationships: [
        { serviceName: "product", foreignKey: "product_id" },
        { serviceName: "catalog_sync", foreignKey: "catalog_brand_id" },
      ],
    }
    expect(linkTableOf(brand)).toBe("product_product_catalog_sync_catalog_brand")
    const model = {
      relationships: [
        { serviceName: "product", foreignKey: "product_id" },
        { serviceName: "catalog_sync", foreignKey: "catalog_brand_model_id" },
      ],
    }
    expect(linkTableOf(model)).toBe("product_product_catalog_sync_catalog_brand_model")
  })

  it("is unknown without two sides", () => {
    expect(linkTableOf({ relationships: [{ serviceName: "product", foreignKey: "product_id" }] })).toBeUndefined()
    expect(linkTableOf({})).toBeUndefined()
  })
})
