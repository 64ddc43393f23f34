import type { InferTypeOf } from "@medusajs/framework/types"
import { model } from "@medusajs/framework/utils"

/**
 * Catalog product -> Medusa product. The catalog id is a 64-bit integer kept as
 * text. The fingerprints let an unchanged card cost no write and a stock-only
 * change touch inventory levels only.
 */
const CatalogProductMap = model
  .define(
    { name: "catalog_product_map", tableName: "mcs_product_map" },
    {
      id: model.id({ prefix: "cspmap" }).primaryKey(),
      catalog_id: model.text(),
      product_id: model.text().nullable(),
      sku: model.text().nullable(),
      // { [size]: variant_id } ("" is the default variant of a product without sizes)
      variant_ids: model.json().nullable(),
      // { [size]: inventory_item_id }
      inventory_item_ids: model.json().nullable(),
      // Everything written to Medusa except stock levels.
      fingerprint: model.text().nullable(),
      // Stock levels per size as written.
      stock_fingerprint: model.text().nullable(),
      sync_version: model.number().nullable(),
      // "active" | "removed" | "draft" (draft: removed in the catalog, kept as draft by setting)
      status: model.text().default("active"),
      last_run_id: model.text().nullable(),
      last_seen_pass: model.text().nullable(),
      synced_at: model.dateTime().nullable(),
    }
  )
  .indexes([{ on: ["catalog_id"], unique: true, where: "deleted_at IS NULL" }, { on: ["product_id"] }, { on: ["last_seen_pass"] }])

/** size key → variant id or inventory item id ("" is the default variant of a product without sizes). */
export type IdBySize = Record<string, string>

/** A mcs_product_map row with its JSON columns typed. */
export type CatalogProductMapRow = Omit<InferTypeOf<typeof CatalogProductMap>, "variant_ids" | "inventory_item_ids"> & {
  variant_ids: IdBySize | null
  inventory_item_ids: IdBySize | null
}

export default CatalogProductMap
