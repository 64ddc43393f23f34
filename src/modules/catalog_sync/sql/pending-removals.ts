// The removals an open order held back (mcs_pending_removal, written by the bulk writer:
// bulk-write/open-orders.ts): read at the start of a run, finished once nothing is reserved.
import { PENDING_REMOVAL_TABLE } from "../../../bulk-write/open-orders"
import { sqlOf, type Connection } from "../../../bulk-write/connection"

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
