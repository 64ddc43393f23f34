// Each size's cost, kept in the plugin's own table (mcs_variant_cost, never product
// metadata), with what the shop's rules made of it: a rules change then reprices every variant
// from these rows with zero API requests (src/sync-run/reprice-run.ts).
//
// Every product the page saw gets its rows (created, updated, stock-only and unchanged: with
// rounding, a new cost can leave the price as it was): rows that changed, the stored ones updated
// by id and new ones inserted; sizes a product no longer has and removed products lose theirs.
// What it stored is handed back so the page's compensation puts back the rows as they were: a
// page that rolls back leaves no row pointing at a variant it made.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { PriceCalculation } from "../../catalog-client/pricing"
import { COST_COLUMNS, storedCostRows, writeCostChanges, type StoredCostRow, type VariantCostRow } from "../../modules/catalog_sync/sql/variant-costs"
import type { PagePlan, PlannedUpsert } from "../../sync/plan-page"

export type CostPricing = { priceCalculation: PriceCalculation; rulesRevision: number }

/** The page's cost rows, from its plan. `variant_id` is filled in once the products are written. */
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

/** The rows as they were before the page stored its own (what a compensation restores). */
export type StoredCosts = { catalogIds: string[]; before: StoredCostRow[] }

export type { VariantCostRow }

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
function sameCostRow(stored: StoredCostRow | undefined, planned: VariantCostRow): boolean {
  if (!stored) return false
  return COST_COLUMNS.every((c) => (c === "category_path" ? sameJsonText(stored.category_path, planned.category_path) : stored[c] === planned[c]))
}

/**
 * Stores the page's cost rows; `written`: the products the page wrote (adopted leftovers
 * included) with their variant ids by size. Returns what a compensation restores (null: nothing stored).
 */
export async function storeVariantCosts(
  container: MedusaContainer,
  costs: PlannedCosts | null,
  written: ReadonlyMap<string, Record<string, string>>
): Promise<StoredCosts | null> {
  if (!costs) return null
  const rows: VariantCostRow[] = []
  for (const p of costs.products) {
    const variantIds = written.get(p.catalogId) ?? (p.kind === "kept" ? p.rowVariantIds : null)
    // A product whose write failed keeps the rows it had.
    if (!variantIds) continue
    for (const r of p.rows) rows.push({ ...r, variant_id: variantIds[r.size_key] ?? null })
  }
  const priced = [...new Set(rows.map((r) => r.catalog_id))]
  const removed = costs.removedIds
  const before = await storedCostRows(container, [...priced, ...removed])
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
  // One transaction: stored rows by id; new ones (and any deleted since the read) by the upsert.
  if (changed.length || gone.length) await writeCostChanges(container, { byId, fresh, gone })
  return { catalogIds: [...priced, ...removed], before }
}
