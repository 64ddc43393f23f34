// The shop's catalog filter applied to what a run reads (src/catalog-filter/ holds the pure
// rules). A page's cards outside the filter become removals: never created, and a product the
// shop already has goes the way a catalog removal goes (deleted or drafted per the setting).
import type { ChangeItem } from "../catalog-client/items"
import type { ProductCard } from "../catalog-client"
import { cardMatchesFilter, isKeepEverything, type CatalogFilter } from "../catalog-filter/filter"
import type { CategoryTree } from "../catalog-filter/category-tree"

export function filterPageItems(items: ChangeItem[], filter: CatalogFilter, tree: CategoryTree): ChangeItem[] {
  if (isKeepEverything(filter)) return items
  return items.map((item) =>
    "product" in item && item.status !== "removed" && !cardMatchesFilter(item.product, filter, tree) ? { status: "removed", id: item.id } : item
  )
}

/** A `/v1/products` card as the page writer takes a changes item. */
export function listedAsChange(card: ProductCard): ChangeItem {
  return { status: "active", id: card.id, product: card }
}

/** Cards per `/v1/products` page: the API's maximum. */
export const PAGE_SIZE_FOR_LISTINGS = 200
