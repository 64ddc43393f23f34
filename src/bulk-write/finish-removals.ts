// What finishing the removals an open order held back (src/sync-run/pending-removals.ts) reads
// and writes of Medusa's tables, in the page transaction it runs in.
import type { Knex } from "knex"
import { valuesInUse } from "./open-orders"
import { softDelete } from "./remove-products"
import { journal } from "./row-journal"

/** Those of these ids whose row in `table` is live (not soft-deleted). */
export async function liveIdsOf(trx: Knex.Transaction, table: "product" | "product_variant", ids: string[]): Promise<Set<string>> {
  const rows: { id: string }[] = await trx(table).select("id").whereIn("id", ids).whereNull("deleted_at")
  return new Set(rows.map((r) => r.id))
}

/** The live variants of these products. */
export async function liveVariantsOf(trx: Knex.Transaction, productIds: string[]): Promise<{ id: string; product_id: string }[]> {
  if (!productIds.length) return []
  return trx("product_variant").select("id", "product_id").whereIn("product_id", productIds).whereNull("deleted_at")
}

/** The option values these variants use, with their product. */
export async function optionValuesOfVariants(
  trx: Knex.Transaction,
  variantIds: string[]
): Promise<{ variant_id: string; product_id: string; option_value_id: string }[]> {
  return trx("product_variant_option as pvo")
    .join("product_variant as v", "v.id", "pvo.variant_id")
    .select("pvo.variant_id", "v.product_id", "pvo.option_value_id")
    .whereIn("pvo.variant_id", variantIds)
}

/** The lost sizes' option values leave their product once no live variant uses them (as the prune step). */
export async function pruneSizeValues(trx: Knex.Transaction, removed: { variant_id: string; product_id: string; option_value_id: string }[]): Promise<void> {
  if (!removed.length) return
  const inUse = await valuesInUse(trx, [...new Set(removed.map((r) => r.product_id))])
  const stale = removed.filter((r) => !inUse.has(r.option_value_id))
  if (!stale.length) return
  const { rows } = await trx.raw(
    `delete from product_product_option_value j using product_product_option ppo
      where j.product_product_option_id = ppo.id and ppo.deleted_at is null
        and (ppo.product_id, j.product_option_value_id) in (select * from unnest(?::text[], ?::text[]))
      returning j.id`,
    [stale.map((s) => s.product_id), stale.map((s) => s.option_value_id)]
  )
  journal(
    trx,
    "product_product_option_value",
    "deleted",
    (rows as { id: string }[]).map((r) => r.id)
  )
  const own: { id: string }[] = await trx("product_option_value as ov")
    .join("product_option as o", "o.id", "ov.option_id")
    .select("ov.id")
    .whereIn(
      "ov.id",
      stale.map((s) => s.option_value_id)
    )
    .andWhere("o.is_exclusive", true)
  await softDelete(
    trx,
    "product_option_value",
    "id",
    own.map((r) => r.id)
  )
}
