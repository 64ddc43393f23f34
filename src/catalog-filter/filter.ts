// What part of the catalog the shop imports: the filter's shape, its validation and the test
// of one card against it. Pure: the category tree is passed in (from the reference cache).
import Decimal from "decimal.js"
import { z } from "zod"
import { inAnySubtree, type CategoryTree } from "./category-tree"

const ID = /^[1-9][0-9]{0,18}$/
const INT64_MAX = "9223372036854775807"

/** A catalog id as a decimal string, 1 to 2^63-1 (numbers are accepted when safe integers). */
const catalogIdText = z
  .union([z.string().trim(), z.number().int().positive().max(Number.MAX_SAFE_INTEGER)], { error: "must be a catalog id from 1 to 9223372036854775807" })
  .transform((v) => String(v))
  .refine((v) => ID.test(v) && (v.length < 19 || v <= INT64_MAX), "must be a catalog id from 1 to 9223372036854775807")

const idList = z
  .array(catalogIdText, { error: "must be a list of catalog ids" })
  .max(1000, "must name at most 1000 ids")
  .default([])
  .transform((ids) => [...new Set(ids)])

const AMOUNT = /^[0-9]{1,15}(\.[0-9]{1,4})?$/

/** A non-negative decimal amount kept as text (money never passes through a float). */
const amountText = z
  .union([z.string().trim(), z.number()], { error: "must be an amount such as 1250 or 99.90" })
  .transform((v) => String(v))
  .refine((v) => AMOUNT.test(v), "must be a non-negative amount with at most 15 digits and 4 decimals, such as 1250 or 99.90")

const filterShape = {
  /** Keep only cards in these categories or below them (empty: every category). */
  include_category_ids: idList,
  /** Drop cards in these categories or below them (wins over include). */
  exclude_category_ids: idList,
  /** Keep only these brands (empty: every brand). */
  include_brand_ids: idList,
  /** Drop these brands (wins over include). */
  exclude_brand_ids: idList,
  /** Keep only cards the catalog says are in stock. */
  in_stock_only: z.boolean({ error: "must be true or false" }).default(false),
  /** Cost band on the card's `cost_price`, inclusive; null: no bound. */
  cost_min: amountText.nullable().default(null),
  cost_max: amountText.nullable().default(null),
  /** Keep only new arrivals (`is_new`). */
  new_only: z.boolean({ error: "must be true or false" }).default(false),
}

const NOT_AN_OBJECT = { error: "must be an object of filter fields" }

// The bounds are compared only when both are amounts: this check runs even after a field's own
// refusal, and a bound such as "abc" must be that field's 400, not a DecimalError.
const boundsInOrder = (f: { cost_min: unknown; cost_max: unknown }) => !isAmount(f.cost_min) || !isAmount(f.cost_max) || new Decimal(f.cost_min).lte(f.cost_max)
const boundsMessage = { message: "cost_min must not exceed cost_max", path: ["cost_max"] }

/** A stored filter (fields it does not know are ignored). */
export const catalogFilterSchema = z.object(filterShape, NOT_AN_OBJECT).refine(boundsInOrder, boundsMessage)

/** An admin's filter: the same rules, and a field it does not know is refused by name. */
export const catalogFilterInputSchema = z.object(filterShape, NOT_AN_OBJECT).strict().refine(boundsInOrder, boundsMessage)

function isAmount(value: unknown): value is string {
  return typeof value === "string" && AMOUNT.test(value)
}

export type CatalogFilter = z.output<typeof catalogFilterSchema>
export type CatalogFilterInput = z.input<typeof catalogFilterSchema>

/** The filter that keeps the whole catalog (today's behaviour). */
export const KEEP_EVERYTHING: CatalogFilter = catalogFilterSchema.parse({})

export function parseCatalogFilter(input: unknown): CatalogFilter {
  return catalogFilterSchema.parse(input ?? {})
}

/** The card fields a filter reads (a validated product card has them all). */
export interface FilterableCard {
  category_id?: string | null
  brand?: { id: string } | null
  in_stock: boolean
  cost_price: string | null
  is_new?: boolean | null
}

export function isKeepEverything(filter: CatalogFilter): boolean {
  return (
    filter.include_category_ids.length === 0 &&
    filter.exclude_category_ids.length === 0 &&
    filter.include_brand_ids.length === 0 &&
    filter.exclude_brand_ids.length === 0 &&
    !filter.in_stock_only &&
    !filter.new_only &&
    filter.cost_min === null &&
    filter.cost_max === null
  )
}

/**
 * Whether the shop imports this card. A card without a category (or brand, or cost) fails
 * any filter that asks for one: the filter says what to keep, and an unknown value is not it.
 */
export function cardMatchesFilter(card: FilterableCard, filter: CatalogFilter, tree: CategoryTree): boolean {
  const category = card.category_id ?? null
  if (filter.include_category_ids.length > 0 && (category === null || !inAnySubtree(category, filter.include_category_ids, tree))) return false
  if (category !== null && inAnySubtree(category, filter.exclude_category_ids, tree)) return false
  const brand = card.brand?.id ?? null
  if (filter.include_brand_ids.length > 0 && (brand === null || !filter.include_brand_ids.includes(brand))) return false
  if (brand !== null && filter.exclude_brand_ids.includes(brand)) return false
  if (filter.in_stock_only && !card.in_stock) return false
  if (filter.new_only && card.is_new !== true) return false
  if (filter.cost_min !== null || filter.cost_max !== null) {
    if (card.cost_price === null) return false
    const cost = new Decimal(card.cost_price)
    if (filter.cost_min !== null && cost.lt(filter.cost_min)) return false
    if (filter.cost_max !== null && cost.gt(filter.cost_max)) return false
  }
  return true
}
