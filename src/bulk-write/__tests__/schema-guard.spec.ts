// The schema guard's comparison (pure) and the bulk writer's schema list it compares.
import { bulkWriteSchema } from "../schema"
import { describeDifferences, schemaDifferences } from "../schema-guard"

const live = (schema: Record<string, string[]>) =>
  Object.entries(schema).flatMap(([table_name, cols]) => cols.map((column_name) => ({ table_name, column_name })))

describe("bulkWriteSchema", () => {
  it("holds the columns the writer's own row planner inserts, and those its updates and soft deletes use", () => {
    const schema = bulkWriteSchema()
    expect(schema.product).toEqual(expect.arrayContaining(["id", "title", "handle", "external_id", "metadata", "discountable", "deleted_at", "updated_at"]))
    expect(schema.inventory_level).toEqual(
      expect.arrayContaining(["inventory_item_id", "location_id", "stocked_quantity", "raw_stocked_quantity", "raw_reserved_quantity"])
    )
    expect(schema.price).toEqual(expect.arrayContaining(["price_set_id", "price_list_id", "amount", "raw_amount", "rules_count", "currency_code"]))
    expect(schema.product_variant_inventory_item).toEqual(expect.arrayContaining(["variant_id", "inventory_item_id", "required_quantity"]))
    expect(schema.translation).toEqual(expect.arrayContaining(["translated_field_count"]))
    for (const table of ["image", "product_option_value", "product_product_option_value", "product_variant_option", "price_rule", "product_sales_channel"])
      expect(schema[table]?.length).toBeGreaterThan(0)
  })
})

describe("schemaDifferences", () => {
  const expected = { product: ["id", "title"], price: ["id", "amount"], translation: ["id", "translated_field_count"] }

  it("finds nothing when every table and column is there (an optional table may be absent whole)", () => {
    expect(schemaDifferences(expected, live({ product: ["id", "title", "extra"], price: ["id", "amount"] }))).toEqual([])
  })

  it("names each missing column and each missing table", () => {
    const found = schemaDifferences(expected, live({ product: ["id", "name"], translation: ["id", "field_count"] }))
    expect(found).toEqual([
      { table: "product", column: "title" },
      { table: "price", column: null },
      { table: "translation", column: "translated_field_count" },
    ])
    expect(describeDifferences(found)).toBe("product.title, table price, translation.translated_field_count")
  })
})
