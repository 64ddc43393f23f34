// Helpers for the pricing specs: the stored costs the rules price from and Medusa's prices,
// read straight from PostgreSQL.
import Decimal from "decimal.js"
import type { StoredVariantPrice } from "../../src/pricing"
import { sql } from "./poll-and-query"

/** catalog category id → ids from the root down to it, from the plugin's synced categories. */
export async function categoryPaths(databaseUrl: string): Promise<Map<string, string[]>> {
  const rows = await sql<{ id: string; external_id: string; parent_category_id: string | null }>(
    databaseUrl,
    "select id, external_id, parent_category_id from product_category where deleted_at is null and external_id is not null and metadata->>'source' is not null"
  )
  const byId = new Map(rows.map((r) => [r.id, r]))
  const out = new Map<string, string[]>()
  for (const r of rows) {
    const path: string[] = []
    let at: typeof r | undefined = r
    while (at && path.length < 50) {
      path.unshift(at.external_id)
      at = at.parent_category_id ? byId.get(at.parent_category_id) : undefined
    }
    out.set(r.external_id, path)
  }
  return out
}

/**
 * Every stored cost with the variant's prices as Medusa holds them (all uah prices of its price
 * set: the lower sells; with two, the higher is crossed out), for checking against the engine.
 */
export async function storedPricesFromSql(databaseUrl: string): Promise<(StoredVariantPrice & { catalog_id: string; size: string })[]> {
  const rows = await sql<{
    catalog_id: string
    size_key: string
    variant_id: string
    cost: string | null
    category_path: string[] | null
    brand_id: string | null
    amounts: string[] | null
  }>(
    databaseUrl,
    `select vc.catalog_id, vc.size_key, vc.variant_id, vc.cost, vc.category_path, vc.brand_id,
            (select array_agg(p.raw_amount->>'value') from product_variant_price_set ps
               join price p on p.price_set_id = ps.price_set_id and p.deleted_at is null and p.currency_code = 'uah'
              where ps.variant_id = vc.variant_id and ps.deleted_at is null) as amounts
       from mcs_variant_cost vc
       join product_variant pv on pv.id = vc.variant_id and pv.deleted_at is null
      where vc.deleted_at is null`
  )
  return rows.map((r) => {
    const amounts = (r.amounts ?? []).map((a) => new Decimal(a)).sort((a, b) => a.comparedTo(b))
    const money = (d: Decimal | undefined) => (d === undefined ? null : d.toFixed(2))
    return {
      variant_id: r.variant_id,
      catalog_id: r.catalog_id,
      size: r.size_key,
      cost: r.cost,
      context: { categoryPath: (r.category_path ?? []).map(String), brandId: r.brand_id },
      current: { amount: money(amounts[0]), crossed_out: amounts.length > 1 ? money(amounts[amounts.length - 1]) : null },
    }
  })
}

/** A variant's selling (base) and crossed-out (the plugin's sale price list) amounts, 2 decimals, or null. */
export type ShopAmounts = { base: string | null; sale: string | null }

/** A decimal amount with 2 places, as Medusa's prices are compared here; null stays null. */
export const twoDecimals = (v: string | null | undefined) => (v === null || v === undefined ? null : new Decimal(v).toFixed(2))

/**
 * Medusa's prices of every live variant of the plugin's live products, keyed
 * "<catalog id>/<size>" ("" for a card without sizes): the base price (no price list) and the
 * price in the plugin's sale price list.
 */
export async function shopPricesByVariant(databaseUrl: string): Promise<Map<string, ShopAmounts>> {
  const rows = await sql<{ key: string; base: string | null; sale: string | null }>(
    databaseUrl,
    `select v.metadata->>'catalog_id' || '/' || coalesce(v.metadata->>'catalog_size', '') as key,
            (select p.raw_amount->>'value' from price p where p.price_set_id = l.price_set_id and p.deleted_at is null and p.price_list_id is null limit 1) as base,
            (select p.raw_amount->>'value' from price p join price_list pl on pl.id = p.price_list_id
              where p.price_set_id = l.price_set_id and p.deleted_at is null and pl.metadata->>'source' = 'catalog-sync' limit 1) as sale
       from product_variant v join product_variant_price_set l on l.variant_id = v.id and l.deleted_at is null
       join product pr on pr.id = v.product_id and pr.deleted_at is null
      where v.deleted_at is null and pr.metadata->>'catalog_sync' = 'true'`
  )
  return new Map(rows.map((r) => [r.key, { base: twoDecimals(r.base), sale: twoDecimals(r.sale) }]))
}
