// Every synced size's stored cost (mcs_variant_cost) with what Medusa sells it at now, read
// in one query from Medusa's own price tables: the base uah price, and the plugin's sale list
// price (a lower sale price sells and crosses the base price out; see prices/price-story.ts).
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import { SALE_PRICE_LIST_SOURCE } from "../../../../workflows/extras/sale-prices"
import { CURRENCY_CODE } from "../../../../sync/catalog-product"
import type { PriceCalculation } from "../../../../sync/settings"
import { priceStory } from "../products/[product_id]/prices/price-story"
import type { PreviewVariant } from "./preview/preview-plan"

type Row = {
  catalog_id: string
  size_key: string
  variant_id: string
  cost: string | null
  category_path: unknown
  brand_id: string | null
  product_id: string
  title: string
  price_set_id: string | null
  base_amount: string | null
  sale_amount: string | null
  sale_list_id: string | null
}

const SQL = `
SELECT vc.catalog_id, vc.size_key, vc.variant_id, vc.cost, vc.category_path, vc.brand_id,
       pr.id AS product_id, pr.title, ps.price_set_id,
       (SELECT p.raw_amount->>'value' FROM price p
         WHERE p.price_set_id = ps.price_set_id AND p.price_list_id IS NULL AND p.currency_code = :currency
           AND p.deleted_at IS NULL AND p.rules_count = 0
         ORDER BY p.created_at LIMIT 1) AS base_amount,
       sale.amount AS sale_amount, sale.price_list_id AS sale_list_id
FROM mcs_variant_cost vc
JOIN product_variant pv ON pv.id = vc.variant_id AND pv.deleted_at IS NULL
JOIN product pr ON pr.id = pv.product_id AND pr.deleted_at IS NULL
LEFT JOIN product_variant_price_set ps ON ps.variant_id = pv.id AND ps.deleted_at IS NULL
LEFT JOIN LATERAL (
  SELECT p.raw_amount->>'value' AS amount, p.price_list_id FROM price p
  JOIN price_list pl ON pl.id = p.price_list_id AND pl.deleted_at IS NULL AND pl.metadata->>'source' = :source
  WHERE p.price_set_id = ps.price_set_id AND p.currency_code = :currency AND p.deleted_at IS NULL
  ORDER BY p.created_at LIMIT 1
) sale ON true
WHERE vc.deleted_at IS NULL AND vc.variant_id IS NOT NULL AND vc.price_calculation = :calculation`

/**
 * The stored costs of the live synced sizes, computed with `calculation` (rows from another
 * price_calculation are stale until the next full pass and are left out), with current prices.
 */
export async function readStoredPrices(container: MedusaContainer, calculation: PriceCalculation): Promise<PreviewVariant[]> {
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex
  const { rows } = (await pg.raw(SQL, { currency: CURRENCY_CODE, source: SALE_PRICE_LIST_SOURCE, calculation })) as { rows: Row[] }
  return rows.map((r) => {
    const prices = [
      ...(r.base_amount !== null ? [{ price_set_id: r.price_set_id ?? "", currency_code: CURRENCY_CODE, amount: r.base_amount, raw_amount: { value: r.base_amount } }] : []),
      ...(r.sale_amount !== null ? [{ price_set_id: r.price_set_id ?? "", price_list_id: r.sale_list_id, currency_code: CURRENCY_CODE, amount: r.sale_amount, raw_amount: { value: r.sale_amount } }] : []),
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
