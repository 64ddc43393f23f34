// Each size's cost, kept in the plugin's own table (catalog_variant_cost, never product
// metadata), with what the shop's rules made of it: a rules change then reprices every variant
// from these rows with zero API requests (src/sync-run/reprice-run.ts).
//
// Every product the page saw gets its rows (created, updated, stock-only and unchanged: with
// rounding, a new cost can leave the price as it was), one upsert per page; sizes a product no
// longer has and removed products lose theirs. Compensation puts back the rows as they were, so
// a page that rolls back leaves no row pointing at a variant it made.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Knex } from "knex"
import { newId } from "../../bulk-write/ids"
import type { PriceCalculation } from "../../catalog-client/pricing"
import type { PagePlan, PlannedUpsert } from "../../sync/plan-page"
import type { PlannedWrite } from "./page-types"

export const storeVariantCostsStepId = "catalog-sync-store-variant-costs"

export const VARIANT_COST_TABLE = "catalog_variant_cost"

export interface StoreVariantCostsInput {
  plan: PagePlan
  /** Products created (adopted leftovers included) and updated: their variant ids come from the write. */
  created: PlannedWrite[]
  updated: PlannedWrite[]
  /** The run's price_calculation (the costs depend on it) and rules revision; null: the page was priced without rules. */
  pricing: { priceCalculation: PriceCalculation; rulesRevision: number } | null
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
export function costRowsOf(p: PlannedUpsert, variantIds: Record<string, string>, pricing: NonNullable<StoreVariantCostsInput["pricing"]>): VariantCostRow[] {
  const rows: VariantCostRow[] = []
  for (const v of p.input.variants) {
    if (!v.priced) continue
    rows.push({
      catalog_id: p.catalogId,
      size_key: v.sizeKey,
      variant_id: variantIds[v.sizeKey] ?? null,
      cost: v.priced.cost,
      price_calculation: pricing.priceCalculation,
      category_id: p.input.details.categoryCatalogId ?? null,
      category_path: JSON.stringify(v.priced.categoryPath),
      brand_id: v.priced.brandId,
      amount: v.priced.amount,
      crossed_out_amount: v.priced.crossedOut,
      priced_revision: pricing.rulesRevision,
    })
  }
  return rows
}

export function knexOf(container: Pick<MedusaContainer, "resolve">): Knex {
  return container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex
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

type StoredRow = VariantCostRow & { id: string }

async function rowsOfProducts(db: Knex | Knex.Transaction, catalogIds: string[]): Promise<StoredRow[]> {
  if (!catalogIds.length) return []
  return db(VARIANT_COST_TABLE)
    .select("id", ...COLUMNS.filter((c) => c !== "category_path"), db.raw("category_path::text as category_path"))
    .whereIn("catalog_id", catalogIds)
    .whereNull("deleted_at")
}

export const storeVariantCostsStep = createStep(
  storeVariantCostsStepId,
  async (input: StoreVariantCostsInput, { container }) => {
    const { plan, pricing } = input
    if (!pricing) return new StepResponse(undefined, null)
    const rows: VariantCostRow[] = []
    for (const w of [...input.created, ...input.updated]) rows.push(...costRowsOf(w.plan, w.result.variantIds, pricing))
    for (const p of [...plan.stockOnly, ...plan.unchanged]) rows.push(...costRowsOf(p, p.row?.variant_ids ?? {}, pricing))
    const priced = [...new Set(rows.map((r) => r.catalog_id))]
    const removed = plan.remove.map((r) => r.catalog_id)
    const db = knexOf(container)
    const before = await rowsOfProducts(db, [...priced, ...removed])
    await db.transaction(async (trx) => {
      await upsertCostRows(trx, rows)
      // Sizes the products no longer have, and removed products: their rows go.
      const keep = new Set(rows.map((r) => `${r.catalog_id}\u0000${r.size_key}`))
      const gone = before.filter((r) => !keep.has(`${r.catalog_id}\u0000${r.size_key}`)).map((r) => r.id)
      if (gone.length) await trx(VARIANT_COST_TABLE).whereIn("id", gone).delete()
    })
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
