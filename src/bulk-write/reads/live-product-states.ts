// Each product's live options (with their live values) and its sales channel and shipping
// profile links, read from Medusa's product tables inside a page's transaction.
import { sqlOf, type Connection } from "../connection"

export interface LiveProductStateRow {
  id: string
  options: { title: string; values: string[] }[]
  in_sales_channel: boolean
  has_shipping_profile: boolean
}

/** One row per live product of `productIds`: what the fields-only and size fast paths check before they write. */
export async function readLiveProductStateRows(connection: Connection, productIds: string[], salesChannelId: string): Promise<LiveProductStateRow[]> {
  if (!productIds.length) return []
  const { rows } = await sqlOf(connection).raw(
    `select p.id,
        coalesce((select json_agg(json_build_object('title', o.title, 'values',
            coalesce((select json_agg(ov.value order by ov.value) from product_option_value ov where ov.option_id = o.id and ov.deleted_at is null), '[]'::json)))
           from product_product_option ppo join product_option o on o.id = ppo.product_option_id and o.deleted_at is null
          where ppo.product_id = p.id and ppo.deleted_at is null), '[]'::json) as options,
        exists (select 1 from product_sales_channel l where l.product_id = p.id and l.sales_channel_id = ? and l.deleted_at is null) as in_sales_channel,
        exists (select 1 from product_shipping_profile l where l.product_id = p.id and l.deleted_at is null) as has_shipping_profile
       from product p where p.id = any(?) and p.deleted_at is null`,
    [salesChannelId, productIds]
  )
  return rows as LiveProductStateRow[]
}
