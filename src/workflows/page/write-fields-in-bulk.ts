// The page's field changes without variant changes in one bulk transaction (src/bulk-write):
// the shop's live variants, options and links of those products read by SQL inside it, then
// the product rows, galleries and category links of the ones that fit (fields-only-changes.ts),
// their base prices when those changed too, their stock levels, and one marked product.updated
// per product after the commit, as the update workflow emits. A failure (a handle taken by
// another product, say) rolls the whole transaction back and the caller hands them all to the
// update workflow.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Connection } from "../../bulk-write/connection"
import { readLiveProductStateRows } from "../../bulk-write/reads/live-product-states"
import { writePageInBulk } from "../../bulk-write"
import { CURRENCY_CODE } from "../../sync/catalog-product"
import { timed } from "../steps/profile"
import type { Placement, ProductToUpdate } from "../page-input"
import type { FastPathOutcome } from "./page-types"
import { fieldsOnlyWrites, splitFieldsOnly, type LiveProductState } from "./fields-only-changes"
import { basePriceRowsOf, writtenPriceOnly } from "./price-only-changes"
import { readLivePricedVariants } from "./write-prices-in-bulk"

/** Each product's live options (with their live values) and whether it has the sales channel and a shipping profile. */
export async function readLiveProductStates(trx: Connection, productIds: string[], salesChannelId: string): Promise<Record<string, LiveProductState>> {
  const out: Record<string, LiveProductState> = {}
  for (const r of await readLiveProductStateRows(trx, productIds, salesChannelId)) {
    out[r.id] = { options: r.options, inSalesChannel: r.in_sales_channel, hasShippingProfile: r.has_shipping_profile }
  }
  return out
}

/** The candidates' live variants and product states, read inside a fast path's transaction. */
export async function readLiveShop(container: MedusaContainer, trx: Connection, candidates: ProductToUpdate[], salesChannelId: string, what: string) {
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
