// Each size's cost, kept in the plugin's own table (mcs_variant_cost, never product
// metadata), with what the shop's rules made of it: a rules change then reprices every variant
// from these rows with zero API requests (src/sync-run/reprice-run.ts).
//
// Every product the page saw gets its rows (created, updated, stock-only and unchanged: with
// rounding, a new cost can leave the price as it was): rows that changed, the stored ones updated
// by id and new ones inserted; sizes a product no longer has and removed products lose theirs.
// Compensation puts back the rows as they were, so a page that rolls back leaves no row
// pointing at a variant it made.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Knex } from "knex"
import { knexOf } from "../../bulk-write/sql"
import { transactionWithoutFlushWait } from "../../bulk-write/sql"
import { newId } from "../../bulk-write/ids"
import type { PriceCalculation } from "../../catalog-client/pricing"
import type { PagePlan, PlannedUpsert } from "../../sync/plan-page"
import { peek, type Sealed } from "./sealed"

export const storeVariantCostsStepId = "catalog-sync-store-variant-costs"

export const VARIANT_COST_TABLE = "mcs_variant_cost"

export type CostPricing = { priceCalculation: PriceCalculation; rulesRevision: number }

/**
 * The page's costs, shaped once where the workflow reads its plan (Medusa's workflow engine deep-copies every
 * step input, so the step gets these rows, not the plan). `variant_id` is filled in by the step.
 */
export interface PlannedCosts {
  products: {
    catalogId: string
    /** "write": created or updated, stored only when its write succeeded; "kept": stock-only or unchanged. */
    kind: "write" | "kept"
    /** The map row's variant ids (a kept product's variants are not rewritten). */
    rowVariantIds: Record<string, string>
    rows: VariantCostRow[]
  }[]
  removedIds: string[]
}

export interface StoreVariantCostsInput {
  costs: Sealed<PlannedCosts | null>
  /** Products written by the page (adopted leftovers included), with their variant ids by size. */
  written: Sealed<{ catalogId: string; variantIdsBySize: Record<string, string> }[]>
}

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

const COLUMNS: (keyof VariantCostRow)[] = [
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

/** The rows of one product: one per size the rules priced. */
export function costRowsOf(p: PlannedUpsert, variantIds: Record<string, string>, pricing: CostPricing): VariantCostRow[] {
  const rows: VariantCostRow[] = []
  for (const v of p.input.variants) {
    if (!v.priced) continue
    rows.push({
      catalog_id: p.catalogId,
      size_key: v.sizeKey,
      variant_id: variantIds[v.sizeKey] ?? null,
      cost: v.priced.cost,
      price_calculation: pricing.priceCalculation,
      category_id: p.input.categoryCatalogId,
      category_path: JSON.stringify(v.priced.categoryPath),
      brand_id: v.priced.brandId,
      amount: v.priced.amount,
      crossed_out_amount: v.priced.crossedOut,
      priced_revision: pricing.rulesRevision,
    })
  }
  return rows
}

/** The page's cost rows, read from the plan once (null: the page was priced without rules). */
export function plannedCosts(plan: PagePlan, pricing: CostPricing | null | undefined): PlannedCosts | null {
  if (!pricing) return null
  const of = (kind: "write" | "kept") => (p: PlannedUpsert) => ({
    catalogId: p.catalogId,
    kind,
    rowVariantIds: p.row?.variant_ids ?? {},
    rows: costRowsOf(p, {}, pricing),
  })
  return {
    products: [...plan.create.map(of("write")), ...plan.update.map(of("write")), ...plan.stockOnly.map(of("kept")), ...plan.unchanged.map(of("kept"))],
    removedIds: plan.remove.map((r) => r.catalog_id),
  }
}

const ROWS_PER_STATEMENT = 500

/** Inserts or updates rows by (catalog_id, size_key); rows equal to the stored ones are not touched. */
export async function upsertCostRows(db: Knex | Knex.Transaction, rows: VariantCostRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT)
    const values = chunk.map(() => `(?, ${COLUMNS.map(() => "?").join(", ")})`).join(", ")
    const bindings = chunk.flatMap((r) => [newId("csvcost"), ...COLUMNS.map((c) => r[c])])
    const updates = COLUMNS.filter((c) => c !== "catalog_id" && c !== "size_key")
    await db.raw(
      `insert into ${VARIANT_COST_TABLE} (id, ${COLUMNS.join(", ")}) values ${values}
       on conflict (catalog_id, size_key) where deleted_at is null do update set
       ${updates.map((c) => `${c} = excluded.${c}`).join(", ")}, updated_at = now()
       where (${updates.map((c) => `${VARIANT_COST_TABLE}.${c}`).join(", ")}) is distinct from (${updates.map((c) => `excluded.${c}`).join(", ")})`,
      bindings,
    )
  }
}

/** Columns an update by id writes (the row's identity, catalog_id and size_key, stays). */
const UPDATED = COLUMNS.filter((c) => c !== "catalog_id" && c !== "size_key")
/** Each updated column's array type in the UPDATE below: text but for these. */
const ARRAY_TYPE: Partial<Record<keyof VariantCostRow, string>> = { category_path: "jsonb[]", priced_revision: "int[]" }

/**
 * Updates stored rows by id, one statement per chunk with a column array each (the upsert by
 * (catalog_id, size_key) tries an insert per row first, with a new id each). Returns the rows
 * no longer stored (soft-deleted since they were read), for the caller to insert.
 */
export async function updateCostRowsById(db: Knex | Knex.Transaction, rows: { id: string; row: VariantCostRow }[]): Promise<VariantCostRow[]> {
  const missing: VariantCostRow[] = []
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT)
    const { rows: updated } = (await db.raw(
      `update ${VARIANT_COST_TABLE} as c set ${UPDATED.map((col) => `${col} = v.${col}`).join(", ")}, updated_at = now()
         from unnest(?::text[], ${UPDATED.map((col) => `?::${ARRAY_TYPE[col] ?? "text[]"}`).join(", ")}) as v(id, ${UPDATED.join(", ")})
        where c.id = v.id and c.deleted_at is null
        returning c.id`,
      [chunk.map((r) => r.id), ...UPDATED.map((col) => chunk.map((r) => r.row[col]))] as unknown as Knex.RawBinding[],
    )) as { rows: { id: string }[] }
    const done = new Set(updated.map((r) => r.id))
    for (const r of chunk) if (!done.has(r.id)) missing.push(r.row)
  }
  return missing
}

type StoredRow = VariantCostRow & { id: string }

async function rowsOfProducts(db: Knex | Knex.Transaction, catalogIds: string[]): Promise<StoredRow[]> {
  if (!catalogIds.length) return []
  return db(VARIANT_COST_TABLE)
    .select("id", ...COLUMNS.filter((c) => c !== "category_path"), db.raw("category_path::text as category_path"))
    .whereIn("catalog_id", catalogIds)
    .whereNull("deleted_at")
}

const sizeOf = (r: Pick<VariantCostRow, "catalog_id" | "size_key">) => `${r.catalog_id}\u0000${r.size_key}`

/** category_path as JSON text in one spelling (PostgreSQL writes jsonb back with spaces). */
function sameJsonText(stored: string | null, planned: string | null): boolean {
  if (stored === null || planned === null) return stored === planned
  return JSON.stringify(JSON.parse(stored)) === planned
}

/**
 * Whether the upsert would leave the stored row as it is: every column equal as text (text
 * columns compare as their text in PostgreSQL too; priced_revision is an integer both sides).
 */
function sameCostRow(stored: StoredRow | undefined, planned: VariantCostRow): boolean {
  if (!stored) return false
  return COLUMNS.every((c) => (c === "category_path" ? sameJsonText(stored.category_path, planned.category_path) : stored[c] === planned[c]))
}

export const storeVariantCostsStep = createStep(
  storeVariantCostsStepId,
  async (input: StoreVariantCostsInput, { container }) => {
    // Read only (shared with the workflow that sealed it, sealShared).
    const costs = peek(input.costs)
    if (!costs) return new StepResponse(undefined, null)
    const written = new Map(peek(input.written).map((w) => [w.catalogId, w.variantIdsBySize]))
    const rows: VariantCostRow[] = []
    for (const p of costs.products) {
      const variantIds = written.get(p.catalogId) ?? (p.kind === "kept" ? p.rowVariantIds : null)
      // A product whose write failed keeps the rows it had.
      if (!variantIds) continue
      for (const r of p.rows) rows.push({ ...r, variant_id: variantIds[r.size_key] ?? null })
    }
    const priced = [...new Set(rows.map((r) => r.catalog_id))]
    const removed = costs.removedIds
    const db = knexOf(container)
    const before = await rowsOfProducts(db, [...priced, ...removed])
    const stored = new Map(before.map((r) => [sizeOf(r), r]))
    // Rows equal to the stored ones are left out here (the upsert would leave them as they are):
    // on a stock-only page that is every row, and the page writes no cost at all.
    const changed = rows.filter((r) => !sameCostRow(stored.get(sizeOf(r)), r))
    const byId: { id: string; row: VariantCostRow }[] = []
    const fresh: VariantCostRow[] = []
    for (const row of changed) {
      const id = stored.get(sizeOf(row))?.id
      if (id) byId.push({ id, row })
      else fresh.push(row)
    }
    // Sizes the products no longer have, and removed products: their rows go.
    const keep = new Set(rows.map(sizeOf))
    const gone = before.filter((r) => !keep.has(sizeOf(r))).map((r) => r.id)
    if (changed.length || gone.length) {
      await transactionWithoutFlushWait(db, async (trx) => {
        // Stored rows by id; new ones (and any deleted since the read) by the upsert.
        const deletedSince = await updateCostRowsById(trx, byId)
        await upsertCostRows(trx, [...fresh, ...deletedSince])
        if (gone.length) await trx(VARIANT_COST_TABLE).whereIn("id", gone).delete()
      })
    }
    return new StepResponse(undefined, { catalogIds: [...priced, ...removed], before })
  },
  async (saved, { container }) => {
    if (!saved) return
    const db = knexOf(container)
    await db.transaction(async (trx) => {
      await trx(VARIANT_COST_TABLE).whereIn("catalog_id", saved.catalogIds).whereNull("deleted_at").delete()
      if (saved.before.length) await trx(VARIANT_COST_TABLE).insert(saved.before)
    })
  },
)
