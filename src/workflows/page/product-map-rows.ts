// The page's product-map rows in a few multi-row statements on Medusa's shared connection,
// instead of the catalog_sync module's create and update (one ORM round per row). The rows are
// the ones the module writes (integration-tests/medusa/product-map-rows.spec.ts compares them
// column by column): ids `cspmap_<ULID>`, JSON columns as jsonb, updated_at moved on every
// update; an update of a row that is gone fails as the module's does.
import type { Knex } from "knex"
import { newId } from "../../bulk-write/ids"
import type { MapRow } from "../../sync/plan-page"

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
export const MAP_ROW_COLUMNS: (keyof MapRow)[] = ["id", "catalog_id", "product_id", "variant_ids", "inventory_item_ids", "fingerprint", "stock_fingerprint", "sync_version", "status"]

/**
 * The live map rows of these catalog ids, in one statement: the rows the module's
 * listCatalogProductMaps returns with MAP_ROW_COLUMNS selected (jsonb parsed, sync_version an
 * integer), without the ORM's work per row (product-map-rows.spec.ts compares them).
 */
export async function readMapRows(db: Knex | Knex.Transaction, catalogIds: string[]): Promise<MapRow[]> {
  if (!catalogIds.length) return []
  const { rows } = (await db.raw(
    `select ${MAP_ROW_COLUMNS.join(", ")} from ${PRODUCT_MAP_TABLE} where catalog_id = any(?::text[]) and deleted_at is null`,
    [catalogIds],
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
export async function insertMapRows(db: Knex | Knex.Transaction, rows: MapRowValues[]): Promise<void> {
  for (const { columns, chunk, values } of statementsOf(rows)) {
    const bindings = chunk.flatMap((r) => [newId("cspmap"), ...columns.map((c) => bound(c, r[c]))])
    await db.raw(`insert into ${PRODUCT_MAP_TABLE} (id, ${columns.join(", ")}) values ${values}`, bindings)
  }
}

/**
 * Updates rows by id, each column set whole (a JSON column is replaced, not merged). Rows with
 * the same columns share one statement. Throws when a row is missing (deleted meanwhile).
 */
export async function updateMapRows(db: Knex | Knex.Transaction, rows: (MapRowValues & { id: string })[]): Promise<void> {
  for (const { columns, chunk, values } of statementsOf(rows)) {
    const bindings = chunk.flatMap((r) => [r.id, ...columns.map((c) => bound(c, r[c]))])
    const result = await db.raw(
      `update ${PRODUCT_MAP_TABLE} as m set ${columns.map((c) => `${c} = v.${c}`).join(", ")}, updated_at = now()
       from (values ${values}) as v(id, ${columns.join(", ")})
       where m.id = v.id and m.deleted_at is null`,
      bindings,
    )
    const count = (result as { rowCount?: number }).rowCount ?? 0
    if (count !== new Set(chunk.map((r) => r.id)).size) throw new Error(`product map: ${chunk.length - count} of ${chunk.length} rows to update were not found`)
  }
}

/** Sets one value on many rows (a full pass marking unchanged products seen). */
export async function setMapColumn(db: Knex | Knex.Transaction, ids: string[], column: "last_seen_pass", value: string): Promise<void> {
  for (const chunk of chunks(ids)) {
    await db(PRODUCT_MAP_TABLE).whereIn("id", chunk).whereNull("deleted_at").update({ [column]: value, updated_at: db.raw("now()") })
  }
}
