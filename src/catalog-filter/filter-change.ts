// What a change of the shop's filter asks of the next run, decided from the filter the shop
// was last brought in line with and the saved one. Pure: the run (src/sync-run/filter-change.ts)
// does the listing and the writes.
import type { CategoryTree } from "./category-tree"
import { cardMatchesFilter, KEEP_EVERYTHING, catalogFilterSchema, type CatalogFilter, type FilterableCard } from "./filter"
import { filterQueries, isNewlyIncluded, widenedPart, type ProductQuery, type QueryOptions } from "./queries"

/**
 * The API's `category_id` is not documented to cover subcategories, so each category of a
 * subtree gets its own listing (a listing that does cover them only repeats cards, deduplicated).
 */
export const FILTER_QUERY_OPTIONS: QueryOptions = { categoryFilterCoversSubtree: false }

export interface FilterChange {
  /** `/v1/products` listings to read (never a full export). */
  queries: ProductQuery[]
  /** Whether products the old filter kept may now fall outside: shop products not listed are removed. */
  narrowed: boolean
  /** Whether a listed card must be written: only what the new filter adds (the rest is in the shop). */
  writes(card: FilterableCard): boolean
  /** Whether a listed card stays in the shop (narrowing removes every shop product not kept). */
  keeps(card: FilterableCard): boolean
}

/** The filter stored as applied (null before any filter was saved: the shop holds everything). */
export function appliedFilterOf(stored: unknown): CatalogFilter {
  if (stored == null) return KEEP_EVERYTHING
  const parsed = catalogFilterSchema.safeParse(stored)
  return parsed.success ? parsed.data : KEEP_EVERYTHING
}

/** null: the new filter keeps exactly what the old one did (nothing to do). */
export function planFilterChange(oldFilter: CatalogFilter, newFilter: CatalogFilter, tree: CategoryTree): FilterChange | null {
  // Narrowed: going back from new to old would widen, so old keeps something new does not.
  const narrowed = widenedPart(newFilter, oldFilter, tree, FILTER_QUERY_OPTIONS) !== null
  const widened = widenedPart(oldFilter, newFilter, tree, FILTER_QUERY_OPTIONS)
  if (!narrowed && !widened) return null
  return {
    // Narrowing must see every card the new filter keeps; widening only the part it adds.
    queries: narrowed ? filterQueries(newFilter, tree, FILTER_QUERY_OPTIONS) : widened!.queries,
    narrowed,
    writes: (card) => isNewlyIncluded(card, oldFilter, newFilter, tree),
    keeps: (card) => cardMatchesFilter(card, newFilter, tree),
  }
}
