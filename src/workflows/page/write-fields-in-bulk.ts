// The page's field changes without variant changes in one bulk transaction (src/bulk-write):
// the shop's live variants, options and links of those products read by SQL inside it, then
// the product rows, galleries and category links of the ones that fit (fields-only-changes.ts),
// their base prices when those changed too, their stock levels, and one marked product.updated
// per product after the commit, as the update workflow emits. A failure (a handle taken by
// another product, say) rolls the whole transaction back and the caller hands them all to the
// update workflow.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Knex } from "knex"
import { writePageInBulk } from "../../bulk-write"
import { CURRENCY_CODE } from "../../sync/catalog-product"
import { timed } from "../steps/profile"
import type { Placement, ProductToUpdate } from "../page-input"
import type { FastPathOutcome } from "./page-types"
import { fieldsOnlyWrites, splitFieldsOnly, type LiveProductState } from "./fields-only-changes"
import { basePriceRowsOf, writtenPriceOnly } from "./price-only-changes"
import { readLivePricedVariants } from "./write-prices-in-bulk"

/** Each product's live options (with their live values) and whether it has the sales channel and a shipping profile. */
export async function readLiveProductStates(trx: Knex.Transaction, productIds: string[], salesChannelId: string): Promise<Record<string, LiveProductState>> {
  const out: Record<string, LiveProductState> = {}
  if (!productIds.length) return out
  const { rows } = await trx.raw(
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
  for (const r of rows as { id: string; options: LiveProductState["options"]; in_sales_channel: boolean; has_shipping_profile: boolean }[]) {
    out[r.id] = { options: r.options, inSalesChannel: r.in_sales_channel, hasShippingProfile: r.has_shipping_profile }
  }
  return out
}

/** The candidates' live variants and product states, read inside a fast path's transaction. */
export async function readLiveShop(container: MedusaContainer, trx: Knex.Transaction, candidates: ProductToUpdate[], salesChannelId: string, what: string) {
  const ids = [...new Set(candidates.map((p) => p.productId))]
  const live = await timed(container, `bulk ${what} read variants`, () => readLivePricedVariants(trx, ids))
  const states = await timed(container, `bulk ${what} read products`, () => readLiveProductStates(trx, ids, salesChannelId))
  return { live, states }
}

export async function writeFieldsInBulk(container: MedusaContainer, candidates: ProductToUpdate[], placement: Placement): Promise<FastPathOutcome> {
  if (!candidates.length) return { written: [], rest: [] }
  return writePageInBulk(container, async (page) => {
    const { live, states } = await readLiveShop(container, page.trx, candidates, placement.salesChannelId, "fields")
    const { bulk, rest } = splitFieldsOnly(candidates, live, states, !!placement.shippingProfileId)
    const { updates, prices, levels } = fieldsOnlyWrites(bulk)
    await timed(container, "bulk fields products", () => page.updateProducts(updates))
    await timed(container, "bulk fields base prices", () => page.setBasePrices(prices, CURRENCY_CODE, basePriceRowsOf(live)))
    await timed(container, "bulk fields stock levels", () => page.setStock(levels, placement.stockLocationId))
    return { written: bulk.map((item) => ({ item, result: writtenPriceOnly(item) })), rest }
  })
}
