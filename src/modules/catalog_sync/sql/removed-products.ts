// What the plugin keeps per product, let go when the product is removed from the shop: its
// sizes' cost rows (mcs_variant_cost, by catalog id) and its field locks (mcs_field_lock, by
// shop product id). A product the catalog sends again is created anew, so nothing here is
// needed again; kept, the rows would point at deleted variants and products.
import { sqlOf, type Connection } from "../../../bulk-write/connection"
import { VARIANT_COST_TABLE } from "./variant-costs"

export const FIELD_LOCK_TABLE = "mcs_field_lock"

export async function dropRowsOfRemovedProducts(connection: Connection, removed: { catalogIds: string[]; productIds: string[] }): Promise<void> {
  const db = sqlOf(connection)
  // Cost rows go as a lost size's do (store-variant-costs.ts deletes them).
  if (removed.catalogIds.length) await db(VARIANT_COST_TABLE).whereIn("catalog_id", removed.catalogIds).whereNull("deleted_at").delete()
  // Field locks are soft-deleted, as the module's own delete does.
  if (removed.productIds.length) {
    await db(FIELD_LOCK_TABLE).whereIn("product_id", removed.productIds).whereNull("deleted_at").update({ deleted_at: db.fn.now(), updated_at: db.fn.now() })
  }
}
