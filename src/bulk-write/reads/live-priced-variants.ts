// Live variants of products with their option value, inventory items, price set and base price,
// read from Medusa's product, pricing and link tables inside a page's transaction.
import { sqlOf, type Connection } from "../connection"

export interface LivePricedVariantRow {
  id: string
  product_id: string
  option_value: string | null
  items: string[]
  price_set_id: string | null
  base_price_id: string | null
  base_amount: string | null
}

/**
 * Live variants of the products (what readLiveVariants reads, by SQL), each with its live price
 * set and that set's base price in the shop's currency (what setBasePrices would read again
 * otherwise: the same rows, picked as it picks them, the latest by creation). Each subquery is a
 * per-variant indexed lookup: an EXISTS there was planned as one
 * hashed scan of every variant's price set link, which grows with the shop. The
 * variants too are looked up product by product: with `product_id = any(…)` and no statistics
 * (before the first analyze) the planner read every live variant of the shop through a partial index.
 * The base price is picked from its set's prices behind `offset 0`, so the set's index is the only
 * way in: with the currency filter beside it and no statistics, the planner walked every price of
 * the currency for each variant (seen right after a sync that removed a shop's sale prices).
 */
export async function readLivePricedVariantRows(connection: Connection, productIds: string[], currencyCode: string): Promise<LivePricedVariantRow[]> {
  if (!productIds.length) return []
  const { rows } = await sqlOf(connection).raw(
    `select v.id, v.product_id,
        (select (select ov.value from product_option_value ov where ov.id = vo.option_value_id and ov.deleted_at is null)
           from product_variant_option vo where vo.variant_id = v.id order by vo.option_value_id limit 1) as option_value,
        coalesce((select array_agg(l.inventory_item_id order by l.created_at) from product_variant_inventory_item l
          join inventory_item i on i.id = l.inventory_item_id and i.deleted_at is null
          where l.variant_id = v.id and l.deleted_at is null), '{}') as items,
        ps.price_set_id, bp.id as base_price_id, bp.amount as base_amount
       from unnest(?::text[]) as x(id)
       cross join lateral (select id, product_id from product_variant v where v.product_id = x.id and v.deleted_at is null offset 0) v
       left join lateral (select ps.price_set_id from product_variant_price_set ps join price_set s on s.id = ps.price_set_id and s.deleted_at is null
          where ps.variant_id = v.id and ps.deleted_at is null limit 1) ps on true
       left join lateral (select p.id, p.amount::text as amount
          from (select * from price p where p.price_set_id = ps.price_set_id and p.deleted_at is null offset 0) p
          where p.price_list_id is null and p.currency_code = ? and coalesce(p.rules_count, 0) = 0
          order by p.created_at desc, p.id desc limit 1) bp on true`,
    // Distinct: an id twice would read its variants twice.
    [[...new Set(productIds)], currencyCode]
  )
  return rows as LivePricedVariantRow[]
}
