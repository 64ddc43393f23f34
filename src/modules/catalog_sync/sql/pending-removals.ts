// The removals an open order held back (mcs_pending_removal, written by the bulk writer:
// bulk-write/open-orders.ts): read at the start of a run, finished once nothing is reserved.
import { PENDING_REMOVAL_TABLE } from "../../../bulk-write/open-orders"
import { sqlOf, type Connection } from "../../../bulk-write/connection"
import { PRODUCT_MAP_TABLE } from "./product-map"

export interface PendingRemovalRow {
  id: string
  kind: "size" | "product"
  subject_id: string
  product_id: string
  catalog_id: string | null
}

/** Every pending removal, in the order they were recorded. */
export async function pendingRemovalRows(connection: Connection): Promise<PendingRemovalRow[]> {
  return sqlOf(connection)(PENDING_REMOVAL_TABLE).select("id", "kind", "subject_id", "product_id", "catalog_id").whereNull("deleted_at").orderBy("id")
}

/** These pending removals are finished (removed, restored or gone). */
export async function finishPendingRows(connection: Connection, ids: string[]): Promise<void> {
  if (!ids.length) return
  const db = sqlOf(connection)
  await db(PENDING_REMOVAL_TABLE).whereIn("id", ids).whereNull("deleted_at").update({ deleted_at: db.fn.now(), updated_at: db.fn.now() })
}

/**
 * Products the shop keeps for an open order: a pending removal of the whole product whose map row
 * is not active (one the catalog sent again is back on sale, not kept). As GET /kept-products counts them.
 */
export async function productsKeptForOrders(connection: Connection): Promise<number> {
  const db = sqlOf(connection)
  const [row] = (await db(`${PENDING_REMOVAL_TABLE} as p`)
    .whereNull("p.deleted_at")
    .where("p.kind", "product")
    .whereNotExists(
      db(`${PRODUCT_MAP_TABLE} as m`).select(db.raw("1")).whereRaw("m.product_id = p.product_id").where("m.status", "active").whereNull("m.deleted_at")
    )
    .countDistinct({ n: "p.product_id" })) as { n: string | number }[]
  return Number(row?.n ?? 0)
}
