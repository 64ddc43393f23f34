// A page's row journal and the module-internal events derived from it: one `{ id }` message per
// row and action, named as Medusa's module services name them, metadata { source, action, object }.
import { RowJournal } from "../row-journal"
import { internalMessages, MODULE_ENTITIES } from "../events"

describe("row journal", () => {
  it("keeps what the page made in the end: a row created then updated is created, created then deleted is nothing", () => {
    const j = new RowJournal()
    j.record("price", "created", ["price_1", "price_2"])
    j.record("price", "updated", ["price_1", "price_3"])
    j.record("price", "deleted", ["price_2", "price_4"])
    j.record("price", "updated", ["price_4"])
    expect(j.ids("price", "created")).toEqual(["price_1"])
    expect(j.ids("price", "updated")).toEqual(["price_3", "price_4"])
    expect(j.ids("price", "deleted")).toEqual(["price_4"])
  })

  it("names each row's event as the module does: <module>.<entity in kebab case>.<action>, internal metadata", () => {
    const j = new RowJournal()
    j.record("product", "created", ["prod_1"])
    j.record("product_variant", "created", ["variant_1", "variant_2"])
    j.record("product_product_option_value", "deleted", ["prodoptval_1"])
    j.record("image", "created", ["img_1"])
    j.record("price", "updated", ["price_1"])
    j.record("inventory_level", "updated", ["iloc_1"])
    // A pivot without an entity (no id) or a table the module does not own: no event.
    j.record("product_category_product", "created", [])
    j.record("some_table", "created", ["x_1"])
    expect(internalMessages(j)).toEqual([
      { name: "product.product.created", data: { id: "prod_1" }, metadata: { source: "product", action: "created", object: "product" } },
      { name: "product.product-variant.created", data: { id: "variant_1" }, metadata: { source: "product", action: "created", object: "product_variant" } },
      { name: "product.product-variant.created", data: { id: "variant_2" }, metadata: { source: "product", action: "created", object: "product_variant" } },
      {
        name: "product.product-product-option-value.deleted",
        data: { id: "prodoptval_1" },
        metadata: { source: "product", action: "deleted", object: "product_product_option_value" },
      },
      { name: "product.product-image.created", data: { id: "img_1" }, metadata: { source: "product", action: "created", object: "product_image" } },
      { name: "pricing.price.updated", data: { id: "price_1" }, metadata: { source: "pricing", action: "updated", object: "price" } },
      { name: "inventory.inventory-level.updated", data: { id: "iloc_1" }, metadata: { source: "inventory", action: "updated", object: "inventory_level" } },
    ])
    expect(Object.keys(MODULE_ENTITIES)).toContain("price_rule")
  })
})
