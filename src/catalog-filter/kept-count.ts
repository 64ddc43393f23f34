// How many of the catalog products the shop read last a filter would keep, for the settings
// page before saving. The facts come from the stored cost rows (category, brand, cost per
// size); stock and "new" are not stored, so those two parts are named as not counted.
import Decimal from "decimal.js"
import type { CategoryTree } from "./category-tree"
import { cardMatchesFilter, type CatalogFilter } from "./filter"

/** One stored cost row (mcs_variant_cost). */
export interface StoredCostRow {
  catalog_id: string
  category_id: string | null
  brand_id: string | null
  cost: string | null
}

export interface KeptCount {
  kept: number
  total: number
  /** Parts of the filter the count could not apply (no stored data): the true count may be lower. */
  not_counted: Array<"in_stock_only" | "new_only">
}

export function countKept(rows: readonly StoredCostRow[], filter: CatalogFilter, tree: CategoryTree): KeptCount {
  // A product's cost for the band is its lowest size cost (the card's cost_price is the lowest too).
  const products = new Map<string, { category_id: string | null; brand_id: string | null; cost: string | null }>()
  for (const r of rows) {
    const seen = products.get(r.catalog_id)
    if (!seen) products.set(r.catalog_id, { category_id: r.category_id, brand_id: r.brand_id, cost: r.cost })
    else if (r.cost !== null && (seen.cost === null || new Decimal(r.cost).lt(seen.cost))) seen.cost = r.cost
  }
  const withoutUnstored = { ...filter, in_stock_only: false, new_only: false }
  let kept = 0
  for (const p of products.values()) {
    const card = { category_id: p.category_id, brand: p.brand_id ? { id: p.brand_id } : null, in_stock: true, cost_price: p.cost, is_new: true }
    if (cardMatchesFilter(card, withoutUnstored, tree)) kept++
  }
  const not_counted: KeptCount["not_counted"] = []
  if (filter.in_stock_only) not_counted.push("in_stock_only")
  if (filter.new_only) not_counted.push("new_only")
  return { kept, total: products.size, not_counted }
}
