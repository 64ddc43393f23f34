import { model } from "@medusajs/framework/utils"

/**
 * A size or a product the catalog removed while an open order had stock of it reserved: kept
 * (variant, inventory item, level) so the order can be fulfilled, cancelled or returned, taken
 * off sale, and removed by a later run once nothing of it is reserved (src/sync-run/pending-removals.ts).
 * `subject_id` is the variant (kind "size") or the product (kind "product").
 */
const CatalogPendingRemoval = model
  .define(
    { name: "catalog_pending_removal", tableName: "mcs_pending_removal" },
    {
      id: model.id({ prefix: "cspendrm" }).primaryKey(),
      kind: model.enum(["size", "product"]),
      subject_id: model.text(),
      product_id: model.text(),
      catalog_id: model.text().nullable(),
      // The run that kept it, and why, in plain words ("kept for an open order").
      run_id: model.text().nullable(),
      reason: model.text().nullable(),
    }
  )
  .indexes([{ on: ["subject_id"], unique: true, where: "deleted_at IS NULL" }, { on: ["product_id"] }])

export default CatalogPendingRemoval
