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
  return (
    await trx.raw(
      `select l.variant_id, l.price_set_id, p.id as price_id, p.amount::text as amount
         from product_variant_price_set l
         join price_set s on s.id = l.price_set_id and s.deleted_at is null
         left join price p on p.price_set_id = l.price_set_id and p.price_list_id = ? and p.currency_code = ? and p.deleted_at is null
        where l.variant_id = any(?) and l.deleted_at is null`,
      [priceListId, currencyCode, variantIds],
    )
  ).rows
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
  const ids: string[] = (
    await trx.raw(
      `select p.id from price p
         join product_variant_price_set l on l.price_set_id = p.price_set_id and l.deleted_at is null
        where l.variant_id = any(?) and p.price_list_id = ? and p.deleted_at is null`,
      [variantIds, priceListId],
    )
  ).rows.map((r: { id: string }) => r.id)
  if (!ids.length) return 0
  await trx("price_rule").whereIn("price_id", ids).whereNull("deleted_at").update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now() })
  await trx("price").whereIn("id", ids).update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now() })
  return ids.length
}
