import { model } from "@medusajs/framework/utils"

/**
 * One size's wholesale cost, kept privately (never in product metadata) so the shop's pricing
 * rules can reprice every variant locally with zero API requests. Money is decimal text, exact
 * as the API sent it. The cost depends on `price_calculation`, so a row remembers the one it was
 * computed with: rows from another calculation are stale until the next full pass.
 */
const CatalogVariantCost = model
  .define(
    { name: "catalog_variant_cost", tableName: "mcs_variant_cost" },
    {
      id: model.id({ prefix: "csvcost" }).primaryKey(),
      // The catalog product id (64-bit integer as text) and the size label ("" = no sizes).
      catalog_id: model.text(),
      size_key: model.text(),
      variant_id: model.text().nullable(),
      // `sizes[].cost_price` as sent; null when no supplier has a price.
      cost: model.text().nullable(),
      price_calculation: model.enum(["min", "avg", "max"]),
      // What the rules match on: the product's category with its ancestors (root → leaf ids)
      // and its brand, as of the last sync of the card.
      category_id: model.text().nullable(),
      category_path: model.json().nullable(),
      brand_id: model.text().nullable(),
      // The selling and crossed-out amounts the plugin last wrote, and the rules revision that
      // computed them: a reprice compares against these and resumes where it stopped.
      amount: model.text().nullable(),
      crossed_out_amount: model.text().nullable(),
      priced_revision: model.number().nullable(),
    }
  )
  .indexes([{ on: ["catalog_id", "size_key"], unique: true, where: "deleted_at IS NULL" }, { on: ["variant_id"] }])

export default CatalogVariantCost
