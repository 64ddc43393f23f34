// The page's change-log rows (mcs_sync_run_change) in one multi-row insert on Medusa's shared
// connection, instead of the catalog_sync module's create (the ORM's work per row). The rows are the
// ones the module writes (integration-tests/medusa/change-log-rows.spec.ts compares them column by
// column): ids `cschg_<ULID>` as the model's `model.id({ prefix: "cschg" })` makes them,
// created_at / updated_at set by the table's defaults, deleted_at null.
import type { Knex } from "knex"
import { transactionWithoutFlushWait } from "../../../bulk-write/sql"
import { newId } from "../../../bulk-write/ids"
import { sqlOf, type Connection } from "../../../bulk-write/connection"
import type { ChangeRecord } from "../../../sync/change-rows"

export const CHANGE_LOG_TABLE = "mcs_sync_run_change"

const COLUMNS: (keyof ChangeRecord)[] = [
  "kind",
  "catalog_id",
  "product_id",
  "title",
  "price_changed",
  "stock_changed",
  "sizes_changed",
  "images_changed",
  "text_changed",
  "price_before",
  "price_after",
  "reason",
  "held",
]

const ROWS_PER_STATEMENT = 500

async function insertChunks(db: Knex | Knex.Transaction, runId: string, rows: ChangeRecord[], ids: string[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT)
    const values = chunk.map(() => `(?, ?, ${COLUMNS.map(() => "?").join(", ")})`).join(", ")
    const bindings = chunk.flatMap((r, k) => [ids[i + k], runId, ...COLUMNS.map((c) => (c === "held" ? (r.held ? JSON.stringify(r.held) : null) : r[c]))])
    await db.raw(`insert into ${CHANGE_LOG_TABLE} (id, run_id, ${COLUMNS.join(", ")}) values ${values}`, bindings)
  }
}

/** Stores rows inside the caller's transaction (a reprice batch logs with its price writes). */
export async function insertChangeRowsIn(trx: Connection, runId: string, rows: ChangeRecord[]): Promise<void> {
  await insertChunks(
    sqlOf(trx),
    runId,
    rows,
    rows.map(() => newId("cschg"))
  )
}

/** Stores the run's rows (all or none) and returns their ids, in the rows' order. */
export async function insertChangeRows(connection: Connection, runId: string, rows: ChangeRecord[]): Promise<string[]> {
  const db = sqlOf(connection)
  const ids = rows.map(() => newId("cschg"))
  if (rows.length <= ROWS_PER_STATEMENT) await insertChunks(db, runId, rows, ids)
  else await transactionWithoutFlushWait(db, (trx) => insertChunks(trx, runId, rows, ids))
  return ids
}

/** The rows a run has stored so far (indexed on run_id). */
export async function storedChangeCount(connection: Connection, runId: string): Promise<number> {
  const { rows } = (await sqlOf(connection).raw("select count(*)::int as n from mcs_sync_run_change where run_id = ? and deleted_at is null", [runId])) as {
    rows: { n: number }[]
  }
  return rows[0].n
}
