// Small knex helpers shared by the bulk writers: chunked multi-row inserts and chunked `IN` lists.
import type { MedusaContainer } from "@medusajs/framework/types"
import { sqlOf, type Connection } from "./connection"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import { rawValue } from "./amounts"
import { ID_PREFIX, newId } from "./ids"
import { journal } from "./row-journal"
import { checkWriteFence } from "./write-fence"
import { paceWrites } from "./write-pace"

export { knexOf } from "./connection"

/**
 * Rows a multi-row insert writes at most. Bounded well under PostgreSQL's 65,535 bind parameters,
 * and small so that no one statement is long: knex builds each statement's text synchronously on
 * the server's event loop (shoppers' requests wait meanwhile), and PostgreSQL works on it as one
 * piece; between statements both serve the shop's own requests.
 */
export const ROWS_PER_STATEMENT = 250

export async function insertRows(trx: Knex.Transaction, table: string, rows: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    // A paced page's writes pause between statements (write-pace.ts); nothing here otherwise.
    await paceWrites(true)
    const { sql, values } = multiRowInsert(table, rows.slice(i, i + ROWS_PER_STATEMENT))
    // The values go to node-postgres as they are, beside the text (its query config's `values`):
    // knex's insert builder placed each of a statement's thousands of values with a `?` and then
    // rewrote every `?` as `$n` with a regular expression, a share of a page's CPU on the server's loop.
    await trx.raw(sql).options({ values })
  }
  journal(
    trx,
    table,
    "created",
    rows.flatMap((r) => (typeof r.id === "string" ? [r.id] : []))
  )
}

const isKnexExpression = (value: unknown) =>
  typeof value === "object" && value !== null && ("isRawInstance" in value || typeof (value as { toSQL?: unknown }).toSQL === "function")

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`

/**
 * One multi-row insert as PostgreSQL's text with numbered parameters and their values: the
 * columns are every key of the rows, a row without one of them gets its DEFAULT (as knex's
 * insert builder writes it), and an undefined value counts as missing.
 */
export function multiRowInsert(table: string, rows: Record<string, unknown>[]): { sql: string; values: unknown[] } {
  const columns: string[] = []
  const seen = new Set<string>()
  for (const row of rows) for (const key in row) if (!seen.has(key) && row[key] !== undefined) (seen.add(key), columns.push(key))
  if (!rows.length || !columns.length) throw new Error(`catalog sync: an insert into ${table} needs a row with a value`)
  const values: unknown[] = []
  const tuples: string[] = new Array(rows.length)
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]
    let tuple = "("
    for (let c = 0; c < columns.length; c++) {
      const value = row[columns[c]]
      if (c > 0) tuple += ","
      if (value === undefined) tuple += "DEFAULT"
      else if (isKnexExpression(value))
        throw new Error(`catalog sync: an insert into ${table} got an SQL expression for ${columns[c]}; inserts take values only`)
      else tuple += "$" + values.push(value)
    }
    tuples[r] = tuple + ")"
  }
  return { sql: `insert into ${quoted(table)} (${columns.map(quoted).join(",")}) values ${tuples.join(",")}`, values }
}

/**
 * A transaction whose commit does not wait for its WAL to reach the disk (synchronous_commit off
 * for it alone): each of a page's commits returns without waiting for the disk. Nothing is lost that a run
 * counts: PostgreSQL writes and flushes its WAL in order, and a run stores its cursor in an
 * ordinary commit after its page's, so once the cursor is on disk so is every page before it.
 * After a crash of the database server or its machine, at most the writes of the last fraction
 * of a second are gone, and the run writes their page again from the cursor it stored. A caller
 * of writePageInBulk outside a run has no such cursor: its last writes before such a crash may
 * be lost although they were committed (and their events emitted).
 */
export async function transactionWithoutFlushWait<T>(connection: Connection, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  // Between a paced page's transactions too.
  await paceWrites()
  return sqlOf(connection).transaction(async (trx) => {
    await trx.raw("set local synchronous_commit = off")
    // Fenced page writes: the run's lock checked inside the transaction, first and before the commit (write-fence.ts).
    await checkWriteFence(trx)
    const result = await work(trx)
    await checkWriteFence(trx)
    return result
  })
}

/** jsonb values go in as JSON text: node-postgres would turn an array into a PostgreSQL array. */
export function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value)
}

export type LivePrice = { id: string; price_set_id: string; price_list_id: string | null; currency_code: string; rules_count: number; amount: string }

/**
 * The live prices of these price sets, each set looked up by its own index (price_set_id). A
 * plain `price_set_id IN (…)` with the other filters lets the planner scan every price of the
 * currency or of the list instead, which grows with the shop; the other filters are the caller's.
 */
export async function livePricesOfSets(trx: Knex.Transaction, setIds: string[]): Promise<LivePrice[]> {
  if (!setIds.length) return []
  const { rows } = await trx.raw(
    `select p.id, p.price_set_id, p.price_list_id, p.currency_code, p.rules_count, p.amount::text as amount
       from unnest(?::text[]) as s(id)
       cross join lateral (select * from price p where p.price_set_id = s.id and p.deleted_at is null offset 0) p
      order by p.created_at, p.id`,
    [[...new Set(setIds)]]
  )
  return rows as LivePrice[]
}

export type VariantPriceSet = { variant_id: string; price_set_id: string; product_id: string | null }

/**
 * Each variant's live price set (live link, live set), with its product when the variant is live
 * (else null). Every row is found by its own index, as in livePricesOfSets: joined plainly, the
 * planner may read every link or variant of the shop instead, worst on tables it has no
 * statistics for yet, a cost that grows with the shop.
 */
export async function priceSetsOfVariants(trx: Knex.Transaction, variantIds: string[]): Promise<VariantPriceSet[]> {
  if (!variantIds.length) return []
  const { rows } = await trx.raw(
    `select l.variant_id, l.price_set_id, v.product_id
       from unnest(?::text[]) as x(id)
       cross join lateral (select variant_id, price_set_id from product_variant_price_set l where l.variant_id = x.id and l.deleted_at is null offset 0) l
       cross join lateral (select 1 from price_set s where s.id = l.price_set_id and s.deleted_at is null offset 0) s
       left join lateral (select product_id from product_variant v where v.id = l.variant_id and v.deleted_at is null offset 0) v on true`,
    [[...new Set(variantIds)]]
  )
  return rows as VariantPriceSet[]
}

export type VariantPrice = VariantPriceSet & { price_id: string | null; amount: string | null }

/** Each variant's live price set and, in it, the live price `wanted` picks (null when none). */
export async function pricesOfVariants(trx: Knex.Transaction, variantIds: string[], wanted: (price: LivePrice) => boolean): Promise<VariantPrice[]> {
  const links = await priceSetsOfVariants(trx, variantIds)
  if (!links.length) return []
  const priceOf = new Map(
    (
      await livePricesOfSets(
        trx,
        links.map((l) => l.price_set_id)
      )
    )
      .filter(wanted)
      .map((p) => [p.price_set_id, p])
  )
  return links.map((l) => ({ ...l, price_id: priceOf.get(l.price_set_id)?.id ?? null, amount: priceOf.get(l.price_set_id)?.amount ?? null }))
}

/** A new price row as the pricing module inserts it (`amount` normalized; no price list: a base price). */
export function newPriceRow(priceSetId: string, currencyCode: string, amount: string, priceListId: string | null) {
  return {
    id: newId(ID_PREFIX.price),
    title: null,
    price_set_id: priceSetId,
    currency_code: currencyCode,
    raw_amount: json(rawValue(amount)),
    rules_count: 0,
    price_list_id: priceListId,
    amount,
  }
}

/**
 * Sets these prices' amounts (amount, raw_amount, updated_at, as the pricing module's upsert
 * writes them) in one statement, with one array per column.
 */
export async function updatePriceAmounts(trx: Knex.Transaction, updates: { id: string; amount: string }[]): Promise<void> {
  if (!updates.length) return
  await trx.raw(
    `update price as p set amount = v.amount, raw_amount = v.raw, updated_at = now()
       from unnest(?::text[], ?::numeric[], ?::jsonb[]) as v(id, amount, raw) where p.id = v.id`,
    [updates.map((u) => u.id), updates.map((u) => u.amount), updates.map((u) => JSON.stringify(rawValue(u.amount)))] as unknown as Knex.RawBinding[]
  )
  journal(
    trx,
    "price",
    "updated",
    updates.map((u) => u.id)
  )
}
