// Price-only fast path: one UPDATE of the variants' base prices (price set via the
// product_variant_price_set link; no price list, no rules, the writer's currency): amount,
// raw_amount, updated_at, as the pricing module's price upsert writes them. A variant whose
// set has no base price yet gets one inserted. Returns the products touched (product.updated).
import type { Knex } from "knex"
import { normalizedDecimal, rawValue } from "./amounts"
import { ID_PREFIX, newId } from "./ids"
import { insertRows, json } from "./sql"
import type { PriceChange } from "./types"

export async function setBasePrices(
  trx: Knex.Transaction,
  changes: PriceChange[],
  currencyCode: string,
): Promise<{ productIds: string[]; updatedPriceIds: string[]; createdPriceIds: string[] }> {
  if (!changes.length) return { productIds: [], updatedPriceIds: [], createdPriceIds: [] }
  const wanted = new Map(changes.map((c) => [c.variantId, normalizedDecimal(c.amount)]))
  const rows: { variant_id: string; product_id: string; price_set_id: string; price_id: string | null; amount: string | null }[] = (
    await trx.raw(
      `select v.id as variant_id, v.product_id, l.price_set_id, p.id as price_id, p.amount::text as amount
         from product_variant v
         join product_variant_price_set l on l.variant_id = v.id and l.deleted_at is null
         join price_set s on s.id = l.price_set_id and s.deleted_at is null
         left join price p on p.price_set_id = l.price_set_id and p.deleted_at is null
              and p.price_list_id is null and p.currency_code = ? and p.rules_count = 0
        where v.id = any(?) and v.deleted_at is null`,
      [currencyCode, [...wanted.keys()]],
    )
  ).rows
  const toUpdate = rows.filter((r) => r.price_id && normalizedDecimal(r.amount!) !== wanted.get(r.variant_id))
  if (toUpdate.length) {
    const values = toUpdate.map(() => "(?, ?::numeric, ?::jsonb)").join(", ")
    const bindings = toUpdate.flatMap((r) => {
      const amount = wanted.get(r.variant_id)!
      return [r.price_id, amount, JSON.stringify(rawValue(amount))]
    })
    await trx.raw(
      `update price as p set amount = v.amount, raw_amount = v.raw, updated_at = now()
       from (values ${values}) as v(id, amount, raw) where p.id = v.id`,
      bindings,
    )
  }
  const toCreate = rows.filter((r) => !r.price_id)
  const created = toCreate.map((r) => {
    const amount = wanted.get(r.variant_id)!
    return {
      id: newId(ID_PREFIX.price),
      title: null,
      price_set_id: r.price_set_id,
      currency_code: currencyCode,
      raw_amount: json(rawValue(amount)),
      rules_count: 0,
      price_list_id: null,
      amount,
    }
  })
  await insertRows(trx, "price", created)
  const touched = [...toUpdate, ...toCreate]
  return {
    productIds: [...new Set(touched.map((r) => r.product_id))],
    updatedPriceIds: toUpdate.map((r) => r.price_id!),
    createdPriceIds: created.map((r) => r.id),
  }
}
