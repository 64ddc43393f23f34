import { model } from "@medusajs/framework/utils"

/**
 * Product → mirrored image URL: one row per catalog product and image URL in its gallery.
 * An image's reference count is its number of rows; rows (not a counter) keep replays of a
 * page idempotent.
 */
const CatalogMirroredImageRef = model
  .define(
    { name: "catalog_mirrored_image_ref", tableName: "mcs_mirrored_image_ref" },
    {
      id: model.id({ prefix: "csimgref" }).primaryKey(),
      catalog_id: model.text(),
      source_url: model.text(),
    }
  )
  .indexes([{ on: ["catalog_id", "source_url"], unique: true, where: "deleted_at IS NULL" }, { on: ["source_url"] }])

export default CatalogMirroredImageRef
