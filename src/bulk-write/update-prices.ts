// Price-only fast path: one UPDATE of the variants' base prices (price set via the
// product_variant_price_set link; no price list, no rules, the writer's currency): amount,
// raw_amount, updated_at, as the pricing module's price upsert writes them. A variant whose
// set has no base price yet gets one inserted. Returns the variants touched (product-variant.updated).
import type { Knex } from "knex"
import { normalizedDecimal } from "./amounts"
import { journal } from "./row-journal"
import { insertRows, newPriceRow, pricesOfVariants, updatePriceAmounts, type LivePrice } from "./sql"
import type { PriceChange } from "./types"

/** A live variant's price set and, in it, its base price (null when the set has none): what a price write reads first. */
export type BasePriceRow = { variant_id: string; product_id: string; price_set_id: string; price_id: string | null; amount: string | null }

/** Each live variant's price set and its base price (null when the set has none), by indexed lookups. */
export async function basePricesOf(trx: Knex.Transaction, variantIds: string[], currencyCode: string): Promise<BasePriceRow[]> {
  const base = (p: LivePrice) => p.price_list_id === null && p.currency_code === currencyCode && Number(p.rules_count) === 0
  return (await pricesOfVariants(trx, variantIds, base)).flatMap((l) => (l.product_id ? [{ ...l, product_id: l.product_id }] : []))
}

/**
 * `known`: the variants' price sets and base prices as the caller already read them in this
 * transaction (readLivePricedVariants reads them with the variants), else they are read here.
 */
export async function setBasePrices(
  trx: Knex.Transaction,
  changes: PriceChange[],
  currencyCode: string,
  known?: BasePriceRow[]
): Promise<{ productIds: string[]; variantIds: string[]; updatedPriceIds: string[]; createdPriceIds: string[] }> {
  if (!changes.length) return { productIds: [], variantIds: [], updatedPriceIds: [], createdPriceIds: [] }
  const wanted = new Map(changes.map((c) => [c.variantId, normalizedDecimal(c.amount)]))
  const rows = known ? known.filter((r) => wanted.has(r.variant_id)) : await basePricesOf(trx, [...wanted.keys()], currencyCode)
  const toUpdate = rows.filter((r) => r.price_id && normalizedDecimal(r.amount!) !== wanted.get(r.variant_id))
  await updatePriceAmounts(
    trx,
    toUpdate.map((r) => ({ id: r.price_id!, amount: wanted.get(r.variant_id)! }))
  )
  const toCreate = rows.filter((r) => !r.price_id)
  const created = toCreate.map((r) => newPriceRow(r.price_set_id, currencyCode, wanted.get(r.variant_id)!, null))
  await insertRows(trx, "price", created)
  const touched = [...toUpdate, ...toCreate]
  return {
    productIds: [...new Set(touched.map((r) => r.product_id))],
    variantIds: [...new Set(touched.map((r) => r.variant_id))],
    updatedPriceIds: toUpdate.map((r) => r.price_id!),
    createdPriceIds: created.map((r) => r.id),
  }
}

/**
 * The base prices (no price list) of these variants' price sets deleted, as the pricing module's
 * price set upsert with no prices deletes them (rows gone, their rules by the foreign key's
 * cascade): a size the catalog no longer prices. Returns the variants touched (product-variant.updated).
 */
export async function removeBasePrices(
  trx: Knex.Transaction,
  variantIds: string[]
): Promise<{ productIds: string[]; variantIds: string[]; deletedPriceIds: string[] }> {
  if (!variantIds.length) return { productIds: [], variantIds: [], deletedPriceIds: [] }
  // Each row found by its own index, as in livePricesOfSets: joined plainly, a planner without
  // statistics took the price list index for `price_list_id is null`, every base price of the shop.
  // The delete checks the price again (a row another transaction changed is re-read by id alone),
  // in a form no index serves: `price_list_id is null` there brought the price list index back.
  const { rows } = await trx.raw(
    `with doomed as (
       select p.id, v.product_id, l.variant_id from unnest(?::text[]) as x(id)
         cross join lateral (select variant_id, price_set_id from product_variant_price_set l where l.variant_id = x.id and l.deleted_at is null offset 0) l
         cross join lateral (select product_id from product_variant v where v.id = l.variant_id and v.deleted_at is null offset 0) v
         cross join lateral (select 1 from price_set s where s.id = l.price_set_id and s.deleted_at is null offset 0) s
         cross join lateral (select id, price_list_id from price p where p.price_set_id = l.price_set_id and p.deleted_at is null offset 0) p
        where p.price_list_id is null
     )
     delete from price p using doomed d where p.id = d.id and coalesce(p.price_list_id, '') = '' and p.deleted_at is null
     returning p.id, d.product_id, d.variant_id`,
    [[...new Set(variantIds)]]
  )
  const deleted = rows as { id: string; product_id: string; variant_id: string }[]
  journal(
    trx,
    "price",
    "deleted",
    deleted.map((r) => r.id)
  )
  return {
    productIds: [...new Set(deleted.map((r) => r.product_id))],
    variantIds: [...new Set(deleted.map((r) => r.variant_id))],
    deletedPriceIds: deleted.map((r) => r.id),
  }
}
