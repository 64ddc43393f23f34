// Each size's stored cost and price (mcs_variant_cost, models/catalog-variant-cost.ts): the
// page stores them (src/workflows/page/store-variant-costs.ts), the reprice run reads and
// reprices them (src/sync-run/reprice-run.ts), the safety brake reads the prices they hold.
import type { Knex } from "knex"
import { newId } from "../../../bulk-write/ids"
import { sqlOf, type Connection, type Sql } from "../../../bulk-write/connection"
import { transactionWithoutFlushWait } from "../../../bulk-write/sql"
import type { PriceCalculation } from "../../../catalog-client/pricing"

export const VARIANT_COST_TABLE = "mcs_variant_cost"

export type VariantCostRow = {
  catalog_id: string
  size_key: string
  variant_id: string | null
  cost: string | null
  price_calculation: PriceCalculation
  category_id: string | null
  category_path: string | null
  brand_id: string | null
  amount: string | null
  crossed_out_amount: string | null
  priced_revision: number
}

export type StoredCostRow = VariantCostRow & { id: string }

export const COST_COLUMNS: (keyof VariantCostRow)[] = [
  "catalog_id",
  "size_key",
  "variant_id",
  "cost",
  "price_calculation",
  "category_id",
  "category_path",
  "brand_id",
  "amount",
  "crossed_out_amount",
  "priced_revision",
]

const ROWS_PER_STATEMENT = 500

/** Inserts or updates rows by (catalog_id, size_key); rows equal to the stored ones are not touched. */
export async function upsertCostRows(connection: Connection, rows: VariantCostRow[]): Promise<void> {
  const db = sqlOf(connection)
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT)
    const values = chunk.map(() => `(?, ${COST_COLUMNS.map(() => "?").join(", ")})`).join(", ")
    const bindings = chunk.flatMap((r) => [newId("csvcost"), ...COST_COLUMNS.map((c) => r[c])])
    const updates = COST_COLUMNS.filter((c) => c !== "catalog_id" && c !== "size_key")
    await db.raw(
      `insert into ${VARIANT_COST_TABLE} (id, ${COST_COLUMNS.join(", ")}) values ${values}
       on conflict (catalog_id, size_key) where deleted_at is null do update set
       ${updates.map((c) => `${c} = excluded.${c}`).join(", ")}, updated_at = now()
       where (${updates.map((c) => `${VARIANT_COST_TABLE}.${c}`).join(", ")}) is distinct from (${updates.map((c) => `excluded.${c}`).join(", ")})`,
      bindings
    )
  }
}

/** Columns an update by id writes (the row's identity, catalog_id and size_key, stays). */
const UPDATED = COST_COLUMNS.filter((c) => c !== "catalog_id" && c !== "size_key")
/** Each updated column's array type in the UPDATE below: text but for these. */
const ARRAY_TYPE: Partial<Record<keyof VariantCostRow, string>> = { category_path: "jsonb[]", priced_revision: "int[]" }

/**
 * Updates stored rows by id, one statement per chunk with a column array each (the upsert by
 * (catalog_id, size_key) tries an insert per row first, with a new id each). Returns the rows
 * no longer stored (soft-deleted since they were read), for the caller to insert.
 */
export async function updateCostRowsById(connection: Connection, rows: { id: string; row: VariantCostRow }[]): Promise<VariantCostRow[]> {
  const db = sqlOf(connection)
  const missing: VariantCostRow[] = []
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT)
    const { rows: updated } = (await db.raw(
      `update ${VARIANT_COST_TABLE} as c set ${UPDATED.map((col) => `${col} = v.${col}`).join(", ")}, updated_at = now()
         from unnest(?::text[], ${UPDATED.map((col) => `?::${ARRAY_TYPE[col] ?? "text[]"}`).join(", ")}) as v(id, ${UPDATED.join(", ")})
        where c.id = v.id and c.deleted_at is null
        returning c.id`,
      [chunk.map((r) => r.id), ...UPDATED.map((col) => chunk.map((r) => r.row[col]))] as unknown as Knex.RawBinding[]
    )) as { rows: { id: string }[] }
    const done = new Set(updated.map((r) => r.id))
    for (const r of chunk) if (!done.has(r.id)) missing.push(r.row)
  }
  return missing
}

/** The live rows of these products (category_path as its JSON text). */
export async function storedCostRows(connection: Connection, catalogIds: string[]): Promise<StoredCostRow[]> {
  if (!catalogIds.length) return []
  const db = sqlOf(connection)
  return db(VARIANT_COST_TABLE)
    .select("id", ...COST_COLUMNS.filter((c) => c !== "category_path"), db.raw("category_path::text as category_path"))
    .whereIn("catalog_id", catalogIds)
    .whereNull("deleted_at")
}

/**
 * A page's cost changes in one transaction: stored rows updated by id, new ones (and any deleted
 * since they were read) inserted by the upsert, and the rows of lost sizes and removed products deleted.
 */
export async function writeCostChanges(
  connection: Connection,
  changes: { byId: { id: string; row: VariantCostRow }[]; fresh: VariantCostRow[]; gone: string[] }
): Promise<void> {
  await transactionWithoutFlushWait(sqlOf(connection), async (trx) => {
    const deletedSince = await updateCostRowsById(trx, changes.byId)
    await upsertCostRows(trx, [...changes.fresh, ...deletedSince])
    if (changes.gone.length) await trx(VARIANT_COST_TABLE).whereIn("id", changes.gone).delete()
  })
}

/** Puts these products' rows back as they were read (`before`): a page's compensation. */
export async function restoreCostRows(connection: Connection, catalogIds: string[], before: StoredCostRow[]): Promise<void> {
  await sqlOf(connection).transaction(async (trx) => {
    await trx(VARIANT_COST_TABLE).whereIn("catalog_id", catalogIds).whereNull("deleted_at").delete()
    if (before.length) await trx(VARIANT_COST_TABLE).insert(before)
  })
}

/** The shop's catalog prices now: sizes with a variant and a selling price. */
export async function pricedSizeCount(connection: Connection): Promise<number> {
  const [row] = await sqlOf(connection)(VARIANT_COST_TABLE).count({ n: "id" }).whereNull("deleted_at").whereNotNull("variant_id").whereNotNull("amount")
  return Number((row as { n: string | number }).n)
}

/** The prices the plugin last wrote for these products' sizes (sizes with a variant). */
export async function lastWrittenPrices(
  connection: Connection,
  catalogIds: string[]
): Promise<{ catalog_id: string; size_key: string; variant_id: string; amount: string | null; crossed_out_amount: string | null }[]> {
  return sqlOf(connection)(VARIANT_COST_TABLE)
    .select("catalog_id", "size_key", "variant_id", "amount", "crossed_out_amount")
    .whereIn("catalog_id", catalogIds)
    .whereNull("deleted_at")
    .whereNotNull("variant_id")
}

/**
 * The cost row's variant is live in Medusa (neither it nor its product soft-deleted). Cost rows
 * outlive a removal, so a reprice and its counts read only the shop's live products through this.
 */
function liveVariant(db: Sql) {
  return db
    .select(db.raw("1"))
    .from("product_variant as pv")
    .join("product as p", "p.id", "pv.product_id")
    .whereRaw(`pv.id = ${VARIANT_COST_TABLE}.variant_id`)
    .whereNull("pv.deleted_at")
    .whereNull("p.deleted_at")
}

/** A stored row a reprice prices again. */
export type RepricedCostRow = {
  id: string
  catalog_id: string
  size_key: string
  variant_id: string
  cost: string | null
  category_id: string | null
  category_path: string[] | null
  brand_id: string | null
  amount: string | null
  crossed_out_amount: string | null
}

/** The next `limit` products priced with this calculation (catalog ids after `after`, in text order) and all their rows. */
export async function nextPricedProducts(
  connection: Connection,
  after: string | null,
  priceCalculation: string,
  limit: number
): Promise<{ catalogIds: string[]; rows: RepricedCostRow[] }> {
  const db = sqlOf(connection)
  const ids = (
    await db(VARIANT_COST_TABLE)
      .distinct("catalog_id")
      .whereNull("deleted_at")
      .andWhere("price_calculation", priceCalculation)
      .whereNotNull("variant_id")
      .whereExists(liveVariant(db))
      .modify((q) => {
        if (after !== null) q.andWhere("catalog_id", ">", after)
      })
      .orderBy("catalog_id")
      .limit(limit)
  ).map((r: { catalog_id: string }) => r.catalog_id)
  if (!ids.length) return { catalogIds: [], rows: [] }
  const rows: RepricedCostRow[] = await db(VARIANT_COST_TABLE)
    .select("id", "catalog_id", "size_key", "variant_id", "cost", "category_id", "category_path", "brand_id", "amount", "crossed_out_amount")
    .whereIn("catalog_id", ids)
    .whereNull("deleted_at")
    .andWhere("price_calculation", priceCalculation)
    .whereNotNull("variant_id")
    .whereExists(liveVariant(db))
  return { catalogIds: ids, rows }
}

/** How many products have rows priced with this calculation. */
export async function pricedProductCount(connection: Connection, priceCalculation: string): Promise<number> {
  const [row] = await sqlOf(connection)(VARIANT_COST_TABLE)
    .countDistinct({ n: "catalog_id" })
    .whereNull("deleted_at")
    .andWhere("price_calculation", priceCalculation)
    .whereNotNull("variant_id")
    .whereExists(liveVariant(sqlOf(connection)))
  return Number((row as { n: string | number }).n)
}

/** A reprice batch's rows: the new amounts of those that changed, and the rules revision on all of them. */
export async function setRepricedRows(
  connection: Connection,
  revision: number,
  changed: { id: string; amount: string; crossed_out: string | null }[],
  unchangedIds: string[]
): Promise<void> {
  const db = sqlOf(connection)
  if (changed.length) {
    const values = changed.map(() => "(?, ?, ?)").join(", ")
    await db.raw(
      `update ${VARIANT_COST_TABLE} as c set amount = v.amount, crossed_out_amount = v.crossed, priced_revision = ?, updated_at = now()
       from (values ${values}) as v(id, amount, crossed) where c.id = v.id`,
      [revision, ...changed.flatMap((c) => [c.id, c.amount, c.crossed_out])]
    )
  }
  if (unchangedIds.length) await db(VARIANT_COST_TABLE).whereIn("id", unchangedIds).update({ priced_revision: revision })
}

/**
 * The stored cost rows of the products a full pass read (`mcs_product_map.last_seen_pass`): what
 * the catalog holds by its last whole read, not the rows of products it has since removed or the
 * shop keeps after a discarded removal.
 */
export async function costRowsSeenInPass(
  connection: Connection,
  passId: string
): Promise<{ catalog_id: string; category_id: string | null; brand_id: string | null; cost: string | null }[]> {
  return sqlOf(connection)(`${VARIANT_COST_TABLE} as c`)
    .select("c.catalog_id", "c.category_id", "c.brand_id", "c.cost")
    .join("mcs_product_map as m", "m.catalog_id", "c.catalog_id")
    .whereNull("c.deleted_at")
    .whereNull("m.deleted_at")
    .andWhere("m.last_seen_pass", passId)
}
