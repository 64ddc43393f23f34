// Of the kept variants a page plans to write, those whose fields or base price the shop holds
// differently (src/sync/kept-variant-changes.ts), read by SQL before anything is written: only
// they are written, as the shop's own variant edit writes one variant, so product-variant.updated
// names exactly the variants that changed.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Knex } from "knex"
import { basePricesOf } from "../../bulk-write/update-prices"
import { CURRENCY_CODE } from "../../sync/catalog-product"
import { changedKeptVariants, type StoredVariant, type WantedVariant } from "../../sync/kept-variant-changes"
import type { KeptVariant } from "../../sync/variant-changes"

/** The variants' fields and base prices as the shop holds them (live variants only). */
export async function storedVariants(trx: Knex.Transaction, variantIds: string[]): Promise<StoredVariant[]> {
  if (!variantIds.length) return []
  const rows: Omit<StoredVariant, "hasPriceSet" | "amount">[] = await trx("product_variant")
    .select("id", "title", "sku", "variant_rank", "metadata")
    .whereIn("id", variantIds)
    .whereNull("deleted_at")
  const prices = new Map((await basePricesOf(trx, variantIds, CURRENCY_CODE)).map((p) => [p.variant_id, p]))
  return rows.map((r) => ({ ...r, hasPriceSet: prices.has(r.id), amount: prices.get(r.id)?.amount ?? null }))
}

export async function readChangedKeptVariants<T extends WantedVariant>(container: MedusaContainer, kept: { fields: T[]; prices: T[] }) {
  const ids = [...new Set([...kept.fields, ...kept.prices].map((v) => v.variantId))]
  if (!ids.length) return kept
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex
  const stored = await pg.transaction((trx) => storedVariants(trx, ids))
  return changedKeptVariants(stored, kept)
}

export const changedKeptVariantsStep = createStep(
  "catalog-sync-changed-kept-variants",
  async (kept: { fields: KeptVariant[]; prices: KeptVariant[] }, { container }) => new StepResponse(await readChangedKeptVariants(container, kept))
)
