// Every synced size's stored cost (mcs_variant_cost) with what Medusa sells it at now
// (bulk-write/reads/stored-prices.ts): the base uah price, and the plugin's sale list price (a
// lower sale price sells and crosses the base price out; see prices/price-story.ts), and whether
// the product's prices are locked (src/field-locks), read as the reprice run reads it.
import type { MedusaContainer } from "@medusajs/framework/types"
import { storedPricesWithShopPrices } from "../../../../bulk-write/reads/stored-prices"
import { SALE_PRICE_LIST_SOURCE } from "../../../../workflows/extras/sale-prices"
import { CURRENCY_CODE } from "../../../../sync/catalog-product"
import type { PriceCalculation } from "../../../../sync/settings"
import { priceStory } from "../products/[product_id]/prices/price-story"
import type { PreviewVariant } from "./preview/preview-plan"
import { catalogSyncService } from "../helpers"

/** Catalog ids asked about at once for their locks (the reprice run asks per batch of this many products). */
const LOCK_BATCH = 1000

/** The catalog ids whose product has its prices locked: the reprice run's own question (catalogIdsWithLockedField). */
async function pricesLockedOf(container: MedusaContainer, catalogIds: string[]): Promise<Set<string>> {
  const service = catalogSyncService(container)
  const ids = [...new Set(catalogIds)]
  const locked = new Set<string>()
  for (let i = 0; i < ids.length; i += LOCK_BATCH) {
    for (const id of await service.catalogIdsWithLockedField(ids.slice(i, i + LOCK_BATCH), "prices")) locked.add(id)
  }
  return locked
}

/**
 * The stored costs of the live synced sizes, computed with `calculation` (rows from another
 * price_calculation are stale until the next full pass and are left out), with current prices;
 * sizes whose product has its prices locked are marked prices_locked (the reprice keeps them).
 */
export async function readStoredPrices(container: MedusaContainer, calculation: PriceCalculation): Promise<PreviewVariant[]> {
  const rows = await storedPricesWithShopPrices(container, { calculation, currency: CURRENCY_CODE, saleListSource: SALE_PRICE_LIST_SOURCE })
  const pricesLocked = await pricesLockedOf(
    container,
    rows.map((r) => r.catalog_id)
  )
  return rows.map((r) => {
    const prices = [
      ...(r.base_amount !== null
        ? [{ price_set_id: r.price_set_id ?? "", currency_code: CURRENCY_CODE, amount: r.base_amount, raw_amount: { value: r.base_amount } }]
        : []),
      ...(r.sale_amount !== null
        ? [
            {
              price_set_id: r.price_set_id ?? "",
              price_list_id: r.sale_list_id,
              currency_code: CURRENCY_CODE,
              amount: r.sale_amount,
              raw_amount: { value: r.sale_amount },
            },
          ]
        : []),
    ]
    const [story] = priceStory([{ id: r.variant_id, title: r.size_key, price_set_id: r.price_set_id ?? "" }], prices, r.sale_list_id)
    return {
      variant_id: r.variant_id,
      catalog_id: r.catalog_id,
      size: r.size_key,
      title: r.title,
      product_id: r.product_id,
      cost: r.cost,
      context: { categoryPath: categoryPathOf(r.category_path), brandId: r.brand_id },
      current: { amount: story.selling, crossed_out: story.crossed_out },
      ...(pricesLocked.has(r.catalog_id) ? { prices_locked: true } : {}),
    }
  })
}

function categoryPathOf(value: unknown): string[] {
  const list = typeof value === "string" ? safeJson(value) : value
  return Array.isArray(list) ? list.map(String) : []
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
