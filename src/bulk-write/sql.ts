// Small knex helpers shared by the bulk writers: chunked multi-row inserts (PostgreSQL takes at
// most 65,535 bind parameters a statement) and chunked `IN` lists.
import type { Knex } from "knex"

const ROWS_PER_STATEMENT = 1000

export async function insertRows(trx: Knex.Transaction, table: string, rows: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    await trx(table).insert(rows.slice(i, i + ROWS_PER_STATEMENT))
  }
}

/** jsonb values go in as JSON text: node-postgres would turn an array into a PostgreSQL array. */
export function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value)
}
