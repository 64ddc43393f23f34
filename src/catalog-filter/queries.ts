// Which `/v1/products` listings serve a filter, and which serve only what a wider filter adds.
// The API filters by one category_id, one brand_id, in_stock and is_new per listing; exclusions
// and the cost band it cannot express, so every fetched card is still tested locally with
// cardMatchesFilter (a listing may return more than the filter keeps, never less).
import { compareIds, inAnySubtree, subtreeIds, type CategoryTree } from "./category-tree"
import { cardMatchesFilter, type CatalogFilter, type FilterableCard } from "./filter"
import Decimal from "decimal.js"

/** One listing's filter parameters, as the catalog client's `listProducts` takes them. */
export interface ProductQuery {
  category_id?: string
  brand_id?: string
  in_stock?: boolean
  is_new?: boolean
}

export interface QueryOptions {
  /**
   * Whether the API's `category_id` also returns the category's subcategories (the sandbox
   * does; the spec does not say). False: one listing per category of each subtree.
   */
  categoryFilterCoversSubtree?: boolean
  /**
   * Most listings for the category × brand product; above it, only the dimension with fewer
   * values is sent to the API (the other is tested locally). Default 50.
   */
  maxQueries?: number
}

type Scope = { categories: string[] | null; brands: string[] | null; inStock?: boolean; isNew?: boolean }

function listingsFor(scope: Scope, tree: CategoryTree, options: QueryOptions): ProductQuery[] {
  let categories = scope.categories
  if (categories && options.categoryFilterCoversSubtree === false) categories = subtreeIds(categories, tree)
  else if (categories) categories = topmost(categories, tree)
  let brands = scope.brands ? [...scope.brands].sort(compareIds) : null
  const max = options.maxQueries ?? 50
  if (categories && brands && categories.length * brands.length > max) {
    if (categories.length <= brands.length) brands = null
    else categories = null
  }
  const flags: ProductQuery = {}
  if (scope.inStock !== undefined) flags.in_stock = scope.inStock
  if (scope.isNew !== undefined) flags.is_new = scope.isNew
  const out: ProductQuery[] = []
  for (const category_id of categories ?? [undefined]) {
    for (const brand_id of brands ?? [undefined]) {
      const q: ProductQuery = { ...flags }
      if (category_id !== undefined) q.category_id = category_id
      if (brand_id !== undefined) q.brand_id = brand_id
      out.push(q)
    }
  }
  return out
}

/** Roots not already inside another root's subtree (a subtree is listed once). */
function topmost(roots: string[], tree: CategoryTree): string[] {
  const unique = [...new Set(roots)]
  return unique.filter((id) => !unique.some((other) => other !== id && inAnySubtree(id, [other], tree))).sort(compareIds)
}

function scopeOf(filter: CatalogFilter): Scope {
  return {
    categories: filter.include_category_ids.length > 0 ? filter.include_category_ids : null,
    brands: filter.include_brand_ids.length > 0 ? filter.include_brand_ids : null,
    inStock: filter.in_stock_only ? true : undefined,
    isNew: filter.new_only ? true : undefined,
  }
}

/**
 * The listings whose union holds every card the filter keeps. `[{}]` is one unfiltered listing
 * (the whole catalog). Cards from them must still pass cardMatchesFilter.
 */
export function filterQueries(filter: CatalogFilter, tree: CategoryTree, options: QueryOptions = {}): ProductQuery[] {
  return listingsFor(scopeOf(filter), tree, options)
}

/** A card the new filter keeps and the old one did not: what widening must fetch and create. */
export function isNewlyIncluded(card: FilterableCard, oldFilter: CatalogFilter, newFilter: CatalogFilter, tree: CategoryTree): boolean {
  return cardMatchesFilter(card, newFilter, tree) && !cardMatchesFilter(card, oldFilter, tree)
}

/** A card the old filter kept and the new one does not: what narrowing removes (or drafts). */
export function isNewlyExcluded(card: FilterableCard, oldFilter: CatalogFilter, newFilter: CatalogFilter, tree: CategoryTree): boolean {
  return cardMatchesFilter(card, oldFilter, tree) && !cardMatchesFilter(card, newFilter, tree)
}

export interface WidenedPart {
  /** Listings whose union holds every newly included card (test each with isNewlyIncluded). */
  queries: ProductQuery[]
  /** Which parts of the filter widened, for the run log. */
  widened: Array<"categories" | "brands" | "in_stock" | "new_only" | "cost">
}

/** Every id of `ids` that some root covers (a null root list covers everything). */
function covered(ids: string[], roots: string[] | null, tree: CategoryTree): boolean {
  return roots === null || ids.every((id) => inAnySubtree(id, roots, tree))
}

const includeOrAll = (ids: string[]) => (ids.length > 0 ? ids : null)

/**
 * What changing the filter from old to new newly includes, as listings narrowed to the part
 * that widened; null when the new filter keeps nothing the old one did not (nothing to fetch).
 * When several parts widen at once the listings of the whole new filter are returned: still no
 * full export unless the new filter itself is unfiltered.
 */
export function widenedPart(oldFilter: CatalogFilter, newFilter: CatalogFilter, tree: CategoryTree, options: QueryOptions = {}): WidenedPart | null {
  const scope = scopeOf(newFilter)
  const widened: WidenedPart["widened"] = []
  const parts: Scope[] = []

  // Categories: new include roots outside the old includes, and old exclusions lifted.
  const oldInclude = includeOrAll(oldFilter.include_category_ids)
  const newInclude = includeOrAll(newFilter.include_category_ids)
  const liftedExcludes = oldFilter.exclude_category_ids.filter((id) => !inAnySubtree(id, newFilter.exclude_category_ids, tree))
  const categoryIncludeWidened = newInclude === null ? oldInclude !== null : !covered(newInclude, oldInclude, tree)
  if (categoryIncludeWidened || liftedExcludes.length > 0) {
    widened.push("categories")
    const roots = categoryIncludeWidened
      ? newInclude === null
        ? null
        : [...newInclude.filter((id) => !covered([id], oldInclude, tree)), ...liftedExcludes]
      : liftedExcludes
    parts.push({ ...scope, categories: roots })
  }

  // Brands: the same over a flat list.
  const oldBrands = includeOrAll(oldFilter.include_brand_ids)
  const newBrands = includeOrAll(newFilter.include_brand_ids)
  const liftedBrands = oldFilter.exclude_brand_ids.filter((id) => !newFilter.exclude_brand_ids.includes(id))
  const brandIncludeWidened = newBrands === null ? oldBrands !== null : oldBrands !== null && newBrands.some((b) => !oldBrands.includes(b))
  if (brandIncludeWidened || liftedBrands.length > 0) {
    widened.push("brands")
    const brands = brandIncludeWidened ? (newBrands === null ? null : [...newBrands.filter((b) => !oldBrands!.includes(b)), ...liftedBrands]) : liftedBrands
    parts.push({ ...scope, brands })
  }

  if (oldFilter.in_stock_only && !newFilter.in_stock_only) {
    widened.push("in_stock")
    parts.push({ ...scope, inStock: false }) // only the cards without stock are new
  }
  if (oldFilter.new_only && !newFilter.new_only) {
    widened.push("new_only")
    parts.push({ ...scope, isNew: undefined }) // the API has no "not new" listing
  }
  if (costWidened(oldFilter, newFilter)) {
    widened.push("cost")
    parts.push(scope) // the API has no cost filter
  }

  if (widened.length === 0) return null
  const scopes = widened.length === 1 ? parts : [scope]
  const seen = new Set<string>()
  const queries: ProductQuery[] = []
  for (const s of scopes) {
    for (const q of listingsFor(s, tree, options)) {
      const key = JSON.stringify([q.category_id, q.brand_id, q.in_stock, q.is_new])
      if (!seen.has(key)) {
        seen.add(key)
        queries.push(q)
      }
    }
  }
  return { queries, widened }
}

function costWidened(oldFilter: CatalogFilter, newFilter: CatalogFilter): boolean {
  const lowerWidened = oldFilter.cost_min !== null && (newFilter.cost_min === null || new Decimal(newFilter.cost_min).lt(oldFilter.cost_min))
  const upperWidened = oldFilter.cost_max !== null && (newFilter.cost_max === null || new Decimal(newFilter.cost_max).gt(oldFilter.cost_max))
  // A band means "cards with a cost": dropping both bounds also admits cards without one.
  return lowerWidened || upperWidened
}
