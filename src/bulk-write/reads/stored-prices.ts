// Every synced size's stored cost (mcs_variant_cost) with what Medusa sells it at now, read in
// one query from Medusa's own price tables: the base price in the currency, and the price of the
// plugin's sale list (the price list whose metadata.source is `saleListSource`).
import { sqlOf, type Connection } from "../connection"

export type StoredPriceRow = {
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

/** The live synced sizes whose cost was computed with `calculation`, with their product and current prices. */
export async function storedPricesWithShopPrices(
  connection: Connection,
  of: { calculation: string; currency: string; saleListSource: string }
): Promise<StoredPriceRow[]> {
  const { rows } = (await sqlOf(connection).raw(SQL, { currency: of.currency, source: of.saleListSource, calculation: of.calculation })) as {
    rows: StoredPriceRow[]
  }
  return rows
}
