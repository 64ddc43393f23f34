// The crossed-out switch in bulk: the plugin's sale price list holds at most one price per
// variant (rule-free list, so rules_count 0 and no price_rule rows, as
// batchPriceListPricesWorkflow writes them). Setting inserts or updates those prices in one
// statement each; clearing soft-deletes them (deleted_at), as batchPriceListPricesWorkflow's
// delete does.
import type { Knex } from "knex"
import { normalizedDecimal, rawValue } from "./amounts"
import { ID_PREFIX, newId } from "./ids"
import { insertRows, json } from "./sql"
import type { SalePrice } from "./types"

type Current = { variant_id: string; price_set_id: string; price_id: string | null; amount: string | null }

async function currentSalePrices(trx: Knex.Transaction, priceListId: string, variantIds: string[], currencyCode: string): Promise<Current[]> {
  const links: { variant_id: string; price_set_id: string }[] = await trx("product_variant_price_set as l")
    .join("price_set as s", "s.id", "l.price_set_id")
    .select("l.variant_id", "l.price_set_id")
    .whereIn("l.variant_id", variantIds)
    .whereNull("l.deleted_at")
    .whereNull("s.deleted_at")
  if (!links.length) return []
  const prices: { id: string; price_set_id: string; amount: string }[] = await trx("price")
    .select("id", "price_set_id", trx.raw("amount::text as amount"))
    .whereIn("price_set_id", links.map((l) => l.price_set_id))
    .andWhere({ price_list_id: priceListId, currency_code: currencyCode })
    .whereNull("deleted_at")
  const priceOf = new Map(prices.map((p) => [p.price_set_id, p]))
  return links.map((l) => ({ ...l, price_id: priceOf.get(l.price_set_id)?.id ?? null, amount: priceOf.get(l.price_set_id)?.amount ?? null }))
}

export async function setSalePrices(
  trx: Knex.Transaction,
  priceListId: string,
  prices: SalePrice[],
  currencyCode: string,
): Promise<{ created: number; updated: number }> {
  if (!prices.length) return { created: 0, updated: 0 }
  const wanted = new Map(prices.map((p) => [p.variantId, normalizedDecimal(p.amount)]))
  const current = await currentSalePrices(trx, priceListId, [...wanted.keys()], currencyCode)
  const toUpdate = current.filter((c) => c.price_id && normalizedDecimal(c.amount!) !== wanted.get(c.variant_id))
  if (toUpdate.length) {
    const values = toUpdate.map(() => "(?, ?::numeric, ?::jsonb)").join(", ")
    await trx.raw(
      `update price as p set amount = v.amount, raw_amount = v.raw, updated_at = now()
       from (values ${values}) as v(id, amount, raw) where p.id = v.id`,
      toUpdate.flatMap((c) => {
        const amount = wanted.get(c.variant_id)!
        return [c.price_id, amount, JSON.stringify(rawValue(amount))]
      }),
    )
  }
  const priced = new Set(current.filter((c) => c.price_id).map((c) => c.variant_id))
  const seen = new Set<string>()
  const rows = current
    .filter((c) => !priced.has(c.variant_id) && !seen.has(c.variant_id) && seen.add(c.variant_id))
    .map((c) => {
      const amount = wanted.get(c.variant_id)!
      return {
        id: newId(ID_PREFIX.price),
        title: null,
        price_set_id: c.price_set_id,
        currency_code: currencyCode,
        raw_amount: json(rawValue(amount)),
        rules_count: 0,
        price_list_id: priceListId,
        amount,
      }
    })
  await insertRows(trx, "price", rows)
  return { created: rows.length, updated: toUpdate.length }
}

export async function deleteSalePrices(trx: Knex.Transaction, priceListId: string, variantIds: string[]): Promise<number> {
  if (!variantIds.length) return 0
  const setIds: string[] = (
    await trx("product_variant_price_set").select("price_set_id").whereIn("variant_id", variantIds).whereNull("deleted_at")
  ).map((r: { price_set_id: string }) => r.price_set_id)
  if (!setIds.length) return 0
  const ids: string[] = (
    await trx("price").select("id").whereIn("price_set_id", setIds).andWhere("price_list_id", priceListId).whereNull("deleted_at")
  ).map((r: { id: string }) => r.id)
  if (!ids.length) return 0
  await trx("price_rule").whereIn("price_id", ids).whereNull("deleted_at").update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now() })
  await trx("price").whereIn("id", ids).update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now() })
  return ids.length
}
