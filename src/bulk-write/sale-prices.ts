// The crossed-out switch in bulk: the plugin's sale price list holds at most one price per
// variant (rule-free list, so rules_count 0 and no price_rule rows, as
// batchPriceListPricesWorkflow writes them). Setting inserts or updates those prices in one
// statement each; clearing soft-deletes them (deleted_at), as batchPriceListPricesWorkflow's
// delete does. `syncSalePrices` does all three for a page in one read and at most one
// statement each: every variant ends with exactly its wanted price in the list (or none).
import type { Knex } from "knex"
import { normalizedDecimal } from "./amounts"
import { journal } from "./row-journal"
import { insertRows, livePricesOfSets, newPriceRow, priceSetsOfVariants, pricesOfVariants, updatePriceAmounts, type VariantPrice } from "./sql"
import type { SalePrice, WantedSalePrice } from "./types"

function currentSalePrices(trx: Knex.Transaction, priceListId: string, variantIds: string[], currencyCode: string): Promise<VariantPrice[]> {
  return pricesOfVariants(trx, variantIds, (p) => p.price_list_id === priceListId && p.currency_code === currencyCode)
}

export async function setSalePrices(
  trx: Knex.Transaction,
  priceListId: string,
  prices: SalePrice[],
  currencyCode: string
): Promise<{ created: number; updated: number }> {
  if (!prices.length) return { created: 0, updated: 0 }
  const wanted = new Map(prices.map((p) => [p.variantId, normalizedDecimal(p.amount)]))
  const current = await currentSalePrices(trx, priceListId, [...wanted.keys()], currencyCode)
  const toUpdate = current.filter((c) => c.price_id && normalizedDecimal(c.amount!) !== wanted.get(c.variant_id))
  await updatePriceAmounts(
    trx,
    toUpdate.map((c) => ({ id: c.price_id!, amount: wanted.get(c.variant_id)! }))
  )
  const priced = new Set(current.filter((c) => c.price_id).map((c) => c.variant_id))
  const seen = new Set<string>()
  const rows = current
    .filter((c) => !priced.has(c.variant_id) && !seen.has(c.variant_id) && seen.add(c.variant_id))
    .map((c) => newPriceRow(c.price_set_id, currencyCode, wanted.get(c.variant_id)!, priceListId))
  await insertRows(trx, "price", rows)
  return { created: rows.length, updated: toUpdate.length }
}

/** Soft-deletes list prices with their rules, as batchPriceListPricesWorkflow's delete. */
async function softDeletePrices(trx: Knex.Transaction, ids: string[]): Promise<void> {
  if (!ids.length) return
  const rules = await trx("price_rule").whereIn("price_id", ids).whereNull("deleted_at").update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now() }, ["id"])
  journal(
    trx,
    "price_rule",
    "deleted",
    rules.map((r: { id: string }) => r.id)
  )
  await trx("price").whereIn("id", ids).update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now() })
  journal(trx, "price", "deleted", ids)
}

async function listHasPrices(trx: Knex.Transaction, priceListId: string): Promise<boolean> {
  const { rows } = await trx.raw("select exists (select 1 from price where price_list_id = ? and deleted_at is null) as any", [priceListId])
  return rows[0].any === true
}

/**
 * The list's prices of these variants made exactly the wanted ones: one price in `currencyCode`
 * per variant with an amount (updated in place when it differs, else inserted), none for a null
 * amount; the list's other prices of these variants (another currency, a duplicate) are deleted.
 * A variant without a live price set has no base price to cross out: skipped.
 */
export async function syncSalePrices(
  trx: Knex.Transaction,
  priceListId: string,
  wanted: WantedSalePrice[],
  currencyCode: string
): Promise<{ created: number; updated: number; deleted: number }> {
  if (!wanted.length) return { created: 0, updated: 0, deleted: 0 }
  // Nothing to set and an empty list (a shop without crossed-out prices): nothing to delete either.
  if (wanted.every((w) => w.amount === null) && !(await listHasPrices(trx, priceListId))) return { created: 0, updated: 0, deleted: 0 }
  const links = await priceSetsOfVariants(
    trx,
    wanted.map((w) => w.variantId)
  )
  if (!links.length) return { created: 0, updated: 0, deleted: 0 }
  const existing = (
    await livePricesOfSets(
      trx,
      links.map((l) => l.price_set_id)
    )
  ).filter((p) => p.price_list_id === priceListId)
  const pricesOfSet = new Map<string, typeof existing>()
  for (const p of existing) pricesOfSet.set(p.price_set_id, [...(pricesOfSet.get(p.price_set_id) ?? []), p])
  const setOf = new Map(links.map((l) => [l.variant_id, l.price_set_id]))
  const amountOf = new Map(wanted.map((w) => [w.variantId, w.amount === null ? null : normalizedDecimal(w.amount)]))

  const toUpdate: { id: string; amount: string }[] = []
  const toCreate: { priceSetId: string; amount: string }[] = []
  const toDelete: string[] = []
  const done = new Set<string>()
  for (const [variantId, amount] of amountOf) {
    const setId = setOf.get(variantId)
    if (!setId || done.has(setId)) continue
    done.add(setId)
    const prices = pricesOfSet.get(setId) ?? []
    const keep = amount === null ? undefined : prices.find((p) => p.currency_code === currencyCode)
    toDelete.push(...prices.filter((p) => p !== keep).map((p) => p.id))
    if (amount === null) continue
    if (!keep) toCreate.push({ priceSetId: setId, amount })
    else if (normalizedDecimal(keep.amount) !== amount) toUpdate.push({ id: keep.id, amount })
  }
  await updatePriceAmounts(trx, toUpdate)
  await insertRows(
    trx,
    "price",
    toCreate.map((c) => newPriceRow(c.priceSetId, currencyCode, c.amount, priceListId))
  )
  await softDeletePrices(trx, toDelete)
  return { created: toCreate.length, updated: toUpdate.length, deleted: toDelete.length }
}

export async function deleteSalePrices(trx: Knex.Transaction, priceListId: string, variantIds: string[]): Promise<number> {
  if (!variantIds.length) return 0
  const setIds: string[] = (await trx("product_variant_price_set").select("price_set_id").whereIn("variant_id", variantIds).whereNull("deleted_at")).map(
    (r: { price_set_id: string }) => r.price_set_id
  )
  if (!setIds.length) return 0
  const ids = (await livePricesOfSets(trx, setIds)).filter((p) => p.price_list_id === priceListId).map((p) => p.id)
  await softDeletePrices(trx, ids)
  return ids.length
}
