// The page's price-only changes in one bulk transaction (src/bulk-write): the shop's live
// variants of those products read by SQL inside it, then one UPDATE of the base prices and the
// stock levels of the products that fit (price-only-changes.ts), and after the commit one
// product-variant.updated per variant repriced, as the shop's own variant price edit
// (updateProductVariantsWorkflow) emits. The sale prices follow in the page's sale-price step, as
// for every written product. Setting a price is idempotent.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Connection } from "../../bulk-write/connection"
import { readLivePricedVariantRows } from "../../bulk-write/reads/live-priced-variants"
import { writePageInBulk } from "../../bulk-write"
import { CURRENCY_CODE } from "../../sync/catalog-product"
import { timed } from "../steps/profile"
import type { Placement, ProductToUpdate } from "../page-input"
import type { FastPathOutcome } from "./page-types"
import { basePriceRowsOf, priceOnlyWrites, splitPriceOnly, writtenPriceOnly, type LivePricedVariant } from "./price-only-changes"

/** Live variants of the products (readLivePricedVariantRows), as the price-only plan takes them. */
export async function readLivePricedVariants(
  trx: Connection,
  productIds: string[],
  currencyCode: string = CURRENCY_CODE
): Promise<Record<string, LivePricedVariant[]>> {
  const out: Record<string, LivePricedVariant[]> = Object.fromEntries(productIds.map((id) => [id, []]))
  for (const r of await readLivePricedVariantRows(trx, productIds, currencyCode)) {
    // catalogSize stays unknown: a size found only by metadata is a relabel, which the update workflow does.
    out[r.product_id]?.push({
      id: r.id,
      optionValue: r.option_value,
      inventoryItemIds: r.items,
      basePrice: r.price_set_id === null ? null : { priceSetId: r.price_set_id, priceId: r.base_price_id, amount: r.base_amount },
    })
  }
  return out
}

export async function writePricesInBulk(container: MedusaContainer, candidates: ProductToUpdate[], placement: Placement): Promise<FastPathOutcome> {
  if (!candidates.length) return { written: [], rest: [] }
  return writePageInBulk(container, async (page) => {
    const live = await timed(container, "bulk price-only read", () => readLivePricedVariants(page.trx, [...new Set(candidates.map((p) => p.productId))]))
    const { bulk, rest } = splitPriceOnly(candidates, live)
    const { prices, levels } = priceOnlyWrites(bulk)
    await timed(container, "bulk price-only base prices", () => page.setBasePrices(prices, CURRENCY_CODE, basePriceRowsOf(live)))
    await timed(container, "bulk price-only stock levels", () => page.setStock(levels, placement.stockLocationId))
    return { written: bulk.map((item) => ({ item, result: writtenPriceOnly(item) })), rest }
  })
}
