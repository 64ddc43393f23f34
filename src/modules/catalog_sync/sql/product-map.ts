// The product map's rows (mcs_product_map). The page's rows in a few multi-row statements on
// Medusa's shared connection, instead of the catalog_sync module's create and update (one ORM round per row). The rows are
// the ones the module writes (integration-tests/medusa/product-map-rows.spec.ts compares them
// column by column): ids `cspmap_<ULID>`, JSON columns as jsonb, updated_at moved on every
// update; an update of a row that is gone fails as the module's does.
import type { Knex } from "knex"
import { newId } from "../../../bulk-write/ids"
import { sqlOf, type Connection } from "../../../bulk-write/connection"
import { transactionWithoutFlushWait } from "../../../bulk-write/sql"
import type { MapRow } from "../../../sync/plan-page"

export const PRODUCT_MAP_TABLE = "mcs_product_map"

/** Every column the page writes, with the type a VALUES list's text is cast to. */
const COLUMN_TYPES: Record<string, string> = {
  catalog_id: "text",
  product_id: "text",
  sku: "text",
  variant_ids: "jsonb",
  inventory_item_ids: "jsonb",
  fingerprint: "text",
  stock_fingerprint: "text",
  sync_version: "integer",
  status: "text",
  last_run_id: "text",
  last_seen_pass: "text",
  synced_at: "timestamptz",
}

/** The columns the sync plans with (MapRow). */
export const MAP_ROW_COLUMNS: (keyof MapRow)[] = [
  "id",
  "catalog_id",
  "product_id",
  "variant_ids",
  "inventory_item_ids",
  "fingerprint",
  "stock_fingerprint",
  "sync_version",
  "status",
]

/**
 * The live map rows of these catalog ids, in one statement: the rows the module's
 * listCatalogProductMaps returns with MAP_ROW_COLUMNS selected (jsonb parsed, sync_version an
 * integer), without the ORM's work per row (product-map-rows.spec.ts compares them).
 */
export async function readMapRows(connection: Connection, catalogIds: string[]): Promise<MapRow[]> {
  if (!catalogIds.length) return []
  const { rows } = (await sqlOf(connection).raw(
    `select ${MAP_ROW_COLUMNS.join(", ")} from ${PRODUCT_MAP_TABLE} where catalog_id = any(?::text[]) and deleted_at is null`,
    [catalogIds]
  )) as { rows: MapRow[] }
  return rows
}

export type MapRowValues = Record<string, unknown>

const ROWS_PER_STATEMENT = 500

function columnsOf(row: MapRowValues): string[] {
  const columns = Object.keys(row).filter((c) => c !== "id")
  for (const c of columns) if (!COLUMN_TYPES[c]) throw new Error(`product map: unknown column ${c}`)
  return columns.sort()
}

/** A value as PostgreSQL text: objects as JSON, times as ISO strings. */
function bound(column: string, value: unknown): Knex.Value {
  if (value === undefined || value === null) return null
  if (value instanceof Date) return value.toISOString()
  if (COLUMN_TYPES[column] === "jsonb") return JSON.stringify(value)
  return value as Knex.Value
}

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) out.push(rows.slice(i, i + ROWS_PER_STATEMENT))
  return out
}

/**
 * Rows with the same columns share one statement (of at most ROWS_PER_STATEMENT rows): each
 * chunk with its columns and its `(?, ?::type, …)` value tuples (the first `?` of each is the row id).
 */
function* statementsOf<T extends MapRowValues>(rows: T[]): Generator<{ columns: string[]; chunk: T[]; values: string }> {
  const byShape = new Map<string, T[]>()
  for (const row of rows) {
    const key = columnsOf(row).join(",")
    const shaped = byShape.get(key)
    if (shaped) shaped.push(row)
    else byShape.set(key, [row])
  }
  for (const [key, shaped] of byShape) {
    const columns = key.split(",")
    for (const chunk of chunks(shaped)) {
      yield { columns, chunk, values: chunk.map(() => `(?, ${columns.map((c) => `?::${COLUMN_TYPES[c]}`).join(", ")})`).join(", ") }
    }
  }
}

/** New rows (status defaults to "active" as the model's default). */
export async function insertMapRows(connection: Connection, rows: MapRowValues[]): Promise<void> {
  const db = sqlOf(connection)
  for (const { columns, chunk, values } of statementsOf(rows)) {
    const bindings = chunk.flatMap((r) => [newId("cspmap"), ...columns.map((c) => bound(c, r[c]))])
    await db.raw(`insert into ${PRODUCT_MAP_TABLE} (id, ${columns.join(", ")}) values ${values}`, bindings)
  }
}

/**
 * Updates rows by id, each column set whole (a JSON column is replaced, not merged). Rows with
 * the same columns share one statement. Throws when a row is missing (deleted meanwhile).
 */
export async function updateMapRows(connection: Connection, rows: (MapRowValues & { id: string })[]): Promise<void> {
  const db = sqlOf(connection)
  for (const { columns, chunk, values } of statementsOf(rows)) {
    const bindings = chunk.flatMap((r) => [r.id, ...columns.map((c) => bound(c, r[c]))])
    const result = await db.raw(
      `update ${PRODUCT_MAP_TABLE} as m set ${columns.map((c) => `${c} = v.${c}`).join(", ")}, updated_at = now()
       from (values ${values}) as v(id, ${columns.join(", ")})
       where m.id = v.id and m.deleted_at is null`,
      bindings
    )
    const count = (result as { rowCount?: number }).rowCount ?? 0
    if (count !== new Set(chunk.map((r) => r.id)).size) throw new Error(`product map: ${chunk.length - count} of ${chunk.length} rows to update were not found`)
  }
}

/** Sets one value on many rows (a full pass marking unchanged products seen). */
export async function setMapColumn(connection: Connection, ids: string[], column: "last_seen_pass", value: string): Promise<void> {
  const db = sqlOf(connection)
  for (const chunk of chunks(ids)) {
    await db(PRODUCT_MAP_TABLE)
      .whereIn("id", chunk)
      .whereNull("deleted_at")
      .update({ [column]: value, updated_at: db.raw("now()") })
  }
}

/**
 * A page's map rows in one transaction: new rows, rewritten rows (JSON id maps replaced whole, so
 * a size that left is gone from them), and unchanged rows a full pass marks seen.
 */
export async function writePageMapRows(
  connection: Connection,
  rows: { insert: MapRowValues[]; update: (MapRowValues & { id: string })[]; seen?: { ids: string[]; pass: string } }
): Promise<void> {
  await transactionWithoutFlushWait(sqlOf(connection), async (trx) => {
    await insertMapRows(trx, rows.insert)
    await updateMapRows(trx, rows.update)
    if (rows.seen) await setMapColumn(trx, rows.seen.ids, "last_seen_pass", rows.seen.pass)
  })
}

/** The active map rows of these catalog ids (the products a removal may still remove). */
export async function activeMapRows(connection: Connection, catalogIds: string[]): Promise<{ id: string; catalog_id: string; product_id: string | null }[]> {
  if (!catalogIds.length) return []
  return sqlOf(connection)(PRODUCT_MAP_TABLE)
    .whereNull("deleted_at")
    .where("status", "active")
    .whereIn("catalog_id", catalogIds)
    .select("id", "catalog_id", "product_id")
}

/** The live map rows pointing at these products (any status), by id. */
export async function mapRowsOfProducts(connection: Connection, productIds: string[]): Promise<{ id: string; catalog_id: string; product_id: string }[]> {
  if (!productIds.length) return []
  return sqlOf(connection)(PRODUCT_MAP_TABLE).select("id", "catalog_id", "product_id").whereIn("product_id", productIds).whereNull("deleted_at")
}

/** Variant ids the product map claims for a size of an active product, and those products (the catalog has them again). */
export async function claimedByMap(connection: Connection, productIds: string[]): Promise<{ variants: Set<string>; products: Set<string> }> {
  const rows: { product_id: string; variant_ids: Record<string, string> | null }[] = await sqlOf(connection)(PRODUCT_MAP_TABLE)
    .select("product_id", "variant_ids")
    .whereIn("product_id", productIds)
    .where("status", "active")
    .whereNull("deleted_at")
  return { variants: new Set(rows.flatMap((r) => Object.values(r.variant_ids ?? {}))), products: new Set(rows.map((r) => r.product_id)) }
}

/** The fingerprints and variant ids of these catalog ids' live rows. */
export async function mapFingerprints(
  connection: Connection,
  catalogIds: string[]
): Promise<{ catalog_id: string; fingerprint: string | null; variant_ids: Record<string, string> | null }[]> {
  if (!catalogIds.length) return []
  return sqlOf(connection)(PRODUCT_MAP_TABLE).select("catalog_id", "fingerprint", "variant_ids").whereIn("catalog_id", catalogIds).whereNull("deleted_at")
}

/** Sets each live row's fingerprint by catalog id, in one statement. */
export async function setMapFingerprints(connection: Connection, fingerprints: ReadonlyMap<string, string>): Promise<void> {
  if (!fingerprints.size) return
  const values = [...fingerprints].map(() => "(?, ?)").join(", ")
  await sqlOf(connection).raw(
    `update ${PRODUCT_MAP_TABLE} as m set fingerprint = v.fingerprint, updated_at = now()
       from (values ${values}) as v(catalog_id, fingerprint) where m.catalog_id = v.catalog_id and m.deleted_at is null`,
    [...fingerprints].flat()
  )
}

/** These catalog ids' mapped products with their titles (null when the product is gone). */
export async function mappedProductTitles(
  connection: Connection,
  catalogIds: string[]
): Promise<{ catalog_id: string; product_id: string | null; title: string | null }[]> {
  if (!catalogIds.length) return []
  return sqlOf(connection)("mcs_product_map as m")
    .leftJoin("product as p", "p.id", "m.product_id")
    .whereIn("m.catalog_id", catalogIds)
    .whereNull("m.deleted_at")
    .select("m.catalog_id", "m.product_id", "p.title")
}

/** Which active mapped products a removal outside a page covers (src/sync-run/sweep.ts). */
export type RemovalScope =
  /** The sweep: not seen in this full pass. */
  | { unseenInPass: string }
  /** A narrowed filter: not among these catalog ids (the cards the new filter keeps). */
  | { notIn: ReadonlySet<string> }

export type ScopeRow = { id: string; catalog_id: string; product_id: string | null }

const SCOPE_CHUNK = 200

/** Catalog ids as one JSON parameter (a hashed set in PostgreSQL), however many; null for none. */
function idsParameter(ids: Iterable<string>): string | null {
  const list = [...ids]
  return list.length ? JSON.stringify(list) : null
}

/** `catalog_id` not among the ids of `idsJson` (idsParameter). */
function notAmong(q: Knex.QueryBuilder, idsJson: string | null): Knex.QueryBuilder {
  return idsJson === null ? q : q.whereRaw("catalog_id not in (select jsonb_array_elements_text(?::jsonb))", [idsJson])
}

/**
 * The scope's active map rows without `except`, a chunk at a time in id order (keyset: a row
 * left active is not read twice), so no per-product list is held across the catalog.
 */
export async function* activeMapRowsInScope(connection: Connection, scope: RemovalScope, except: Iterable<string>): AsyncGenerator<ScopeRow[]> {
  const db = sqlOf(connection) as Knex
  // The id lists' parameters once, not again for every chunk.
  const notKept = "notIn" in scope ? idsParameter(scope.notIn) : null
  const excepted = idsParameter(except)
  const scoped = () => {
    const q = db(PRODUCT_MAP_TABLE).whereNull("deleted_at").where("status", "active")
    if ("unseenInPass" in scope) q.where((w) => w.whereNull("last_seen_pass").orWhereNot("last_seen_pass", scope.unseenInPass))
    else notAmong(q, notKept)
    return notAmong(q, excepted)
  }
  for (let after: string | null = null; ;) {
    const q = scoped().select("id", "catalog_id", "product_id").orderBy("id").limit(SCOPE_CHUNK)
    if (after !== null) q.where("id", ">", after)
    const rows = (await q) as ScopeRow[]
    if (!rows.length) return
    yield rows
    after = rows[rows.length - 1].id
  }
}

/** Products the shop holds from the catalog now: live map rows whose Medusa product is live (drafts included). */
export async function liveMappedProductCount(connection: Connection): Promise<number> {
  const [row] = await sqlOf(connection)(`${PRODUCT_MAP_TABLE} as m`)
    .join("product as p", "p.id", "m.product_id")
    .whereNull("m.deleted_at")
    .whereNull("p.deleted_at")
    .countDistinct({ n: "m.product_id" })
  return Number((row as { n: string | number }).n)
}
