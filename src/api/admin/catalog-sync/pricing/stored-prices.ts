// Every synced size's stored cost (mcs_variant_cost) with what Medusa sells it at now
// (bulk-write/reads/stored-prices.ts): the base uah price, and the plugin's sale list price (a
// lower sale price sells and crosses the base price out; see prices/price-story.ts).
import type { MedusaContainer } from "@medusajs/framework/types"
import { storedPricesWithShopPrices } from "../../../../bulk-write/reads/stored-prices"
import { SALE_PRICE_LIST_SOURCE } from "../../../../workflows/extras/sale-prices"
import { CURRENCY_CODE } from "../../../../sync/catalog-product"
import type { PriceCalculation } from "../../../../sync/settings"
import { priceStory } from "../products/[product_id]/prices/price-story"
import type { PreviewVariant } from "./preview/preview-plan"

/**
 * The stored costs of the live synced sizes, computed with `calculation` (rows from another
 * price_calculation are stale until the next full pass and are left out), with current prices.
 */
export async function readStoredPrices(container: MedusaContainer, calculation: PriceCalculation): Promise<PreviewVariant[]> {
  const rows = await storedPricesWithShopPrices(container, { calculation, currency: CURRENCY_CODE, saleListSource: SALE_PRICE_LIST_SOURCE })
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
