// Prices read from Medusa's pricing tables through the variant–price-set link.
import { sqlOf, type Connection } from "../connection"

export type VariantPriceRow = { variant_id: string; price_list_id: string | null; amount: string }

/**
 * Every live price in `currency` of these variants (base and price-list prices), by price id. One
 * statement over the variant–price-set link and the prices (live rows only), each variant's
 * prices looked up by their set's index: a plain join let the planner read every price of the
 * currency.
 */
export async function variantPricesIn(connection: Connection, variantIds: string[], currency: string): Promise<VariantPriceRow[]> {
  if (!variantIds.length) return []
  const { rows } = (await sqlOf(connection).raw(
    `select l.variant_id, p.price_list_id, coalesce(p.raw_amount->>'value', p.amount::text) as amount
       from unnest(?::text[]) as v(id)
       cross join lateral (select * from product_variant_price_set l where l.variant_id = v.id and l.deleted_at is null offset 0) l
       cross join lateral (select * from price p where p.price_set_id = l.price_set_id and p.deleted_at is null offset 0) p
      where p.currency_code = ?
      order by p.id`,
    [variantIds, currency]
  )) as { rows: VariantPriceRow[] }
  return rows
}
