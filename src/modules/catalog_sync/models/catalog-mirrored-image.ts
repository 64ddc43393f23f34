import { model } from "@medusajs/framework/utils"

/**
 * One catalog image URL copied into the shop's File module (mirrored images). Identical
 * bytes under several URLs share one stored file (same content_hash and file_id); the file is
 * deleted when no product references any URL that uses it. A failed download keeps no file:
 * the product shows the catalog URL and the download is tried again at next_attempt_at.
 */
const CatalogMirroredImage = model
  .define(
    { name: "catalog_mirrored_image", tableName: "mcs_mirrored_image" },
    {
      id: model.id({ prefix: "csimg" }).primaryKey(),
      source_url: model.text(),
      // SHA-256 of the bytes, hex; null until downloaded.
      content_hash: model.text().nullable(),
      // The File module's id (provider key) and the URL the shop serves it at.
      file_id: model.text().nullable(),
      shop_url: model.text().nullable(),
      mime_type: model.text().nullable(),
      size_bytes: model.number().nullable(),
      failure_count: model.number().default(0),
      last_error: model.text().nullable(),
      next_attempt_at: model.dateTime().nullable(),
    }
  )
  .indexes([{ on: ["source_url"], unique: true, where: "deleted_at IS NULL" }, { on: ["content_hash"] }, { on: ["file_id"] }])

export default CatalogMirroredImage
