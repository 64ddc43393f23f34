// The page's updates with changed sizes in one bulk transaction (src/bulk-write): the shop's
// live variants, options and links of those products read by SQL inside it, then, for the ones
// that fit (size-changes.ts), the lost sizes' variants removed, the size option's values pruned
// and added, the new sizes' variants with prices and inventory, the kept sizes' fields, prices
// and stock levels, the product fields where they changed; after the commit the events the shop's
// own variant, stock and product edits emit (bulk-write/page-writer.ts: product.updated only where
// the fields changed). A failure rolls the whole transaction back and the caller hands them all
// to the update workflow.
import type { MedusaContainer } from "@medusajs/framework/types"
import { takenSkus } from "../../bulk-write/reads/taken-skus"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { KEPT_FOR_OPEN_ORDER, writePageInBulk } from "../../bulk-write"
import { CURRENCY_CODE } from "../../sync/catalog-product"
import { timed } from "../steps/profile"
import type { Placement, ProductToUpdate } from "../page-input"
import type { FastPathOutcome } from "./page-types"
import { sizeChangeWrites, splitSizeChanges, withoutBlocked, writtenSizeChange, type SizeChangeBlockers } from "./size-changes"
import { readLiveShop } from "./write-fields-in-bulk"

export async function writeSizesInBulk(container: MedusaContainer, candidates: ProductToUpdate[], placement: Placement): Promise<FastPathOutcome> {
  if (!candidates.length) return { written: [], rest: [] }
  let kept: string[] = []
  const outcome = await writePageInBulk(container, async (page): Promise<FastPathOutcome> => {
    const { live, states } = await readLiveShop(container, page.trx, candidates, placement.salesChannelId, "sizes")
    const planned = splitSizeChanges(candidates, live, states, !!placement.shippingProfileId)
    // New sizes' SKUs a live variant or item has.
    const blockers: SizeChangeBlockers = await timed(container, "bulk sizes read blockers", async () => ({
      takenSkus: await takenSkus(
        page.trx,
        planned.bulk.flatMap((b) => b.plan.added.map((a) => a.sku))
      ),
    }))
    const { bulk, rest } = withoutBlocked(planned, blockers)
    const { changes, prices, unpriced, levels, updates } = sizeChangeWrites(bulk)
    const bulkPlacement = { ...placement, currencyCode: CURRENCY_CODE }
    const changed = await timed(container, "bulk sizes variants", () => page.changeSizes(changes, bulkPlacement))
    kept = changed.keptForOrders.variantIds
    await timed(container, "bulk sizes products", () => page.updateProducts(updates))
    await timed(container, "bulk sizes base prices", () => page.setBasePrices(prices, CURRENCY_CODE))
    await timed(container, "bulk sizes prices removed", () => page.removeBasePrices(unpriced))
    await timed(container, "bulk sizes stock levels", () => page.setStock(levels, placement.stockLocationId))
    return { written: bulk.map((b, i) => ({ item: b.item, result: writtenSizeChange(b, changed.added[i]) })), rest }
  })
  // Said once committed (a rolled-back transaction hands the products to the update workflow, which says its own).
  if (kept.length) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .info(`catalog sync: bulk sizes: ${kept.length} lost size(s) ${KEPT_FOR_OPEN_ORDER} (off sale, removed once nothing is reserved): ${kept.join(", ")}`)
  }
  return outcome
}
