import { model } from "@medusajs/framework/utils"

/**
 * One shop product's field locks (src/field-locks) and what the sync knows of its lockable
 * fields. `lock`/`unlock` are the product's overrides of the shop-wide default (settings
 * `field_locks.locked`); `held` the catalog's values the sync did not write because the field
 * was locked (shown in the product widget, taken on unlock); `written` the values the sync last
 * wrote (an admin edit is a difference from them: auto-lock).
 */
const CatalogFieldLock = model
  .define(
    { name: "catalog_field_lock", tableName: "mcs_field_lock" },
    {
      id: model.id({ prefix: "csflock" }).primaryKey(),
      product_id: model.text(),
      catalog_id: model.text().nullable(),
      lock: model.json().nullable(),
      unlock: model.json().nullable(),
      held: model.json().nullable(),
      held_at: model.dateTime().nullable(),
      written: model.json().nullable(),
    }
  )
  .indexes([{ on: ["product_id"], unique: true, where: "deleted_at IS NULL" }])

export default CatalogFieldLock
