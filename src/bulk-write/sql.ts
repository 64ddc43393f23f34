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

export type LivePrice = { id: string; price_set_id: string; price_list_id: string | null; currency_code: string; rules_count: number; amount: string }

/**
 * The live prices of these price sets, each set looked up by its own index (price_set_id). A
 * plain `price_set_id IN (…)` with the other filters lets the planner scan every price of the
 * currency or of the list instead, which grows with the shop (measured: 47 to 85 ms a page of
 * 760 sets on a 10,000-product shop, 10 ms this way); the other filters are the caller's.
 */
export async function livePricesOfSets(trx: Knex.Transaction, setIds: string[]): Promise<LivePrice[]> {
  if (!setIds.length) return []
  const { rows } = await trx.raw(
    `select p.id, p.price_set_id, p.price_list_id, p.currency_code, p.rules_count, p.amount::text as amount
       from unnest(?::text[]) as s(id)
       cross join lateral (select * from price p where p.price_set_id = s.id and p.deleted_at is null offset 0) p
      order by p.created_at, p.id`,
    [[...new Set(setIds)]],
  )
  return rows as LivePrice[]
}
