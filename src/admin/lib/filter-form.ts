// The filter part of the settings form ↔ the API's filter. Categories and brands are picked
// from the synced lists (the pricing rules' pickers), so the form holds their ids as lists.
import type { FilterKeptCount } from "./api"
import { formatCount, formatDateTime } from "./format"
import type { SyncSettings } from "./types"

export type CatalogFilterSettings = NonNullable<SyncSettings["filter"]>

export type FilterFormValues = {
  include_category_ids: string[]
  exclude_category_ids: string[]
  include_brand_ids: string[]
  exclude_brand_ids: string[]
  in_stock_only: boolean
  new_only: boolean
  cost_min: string
  cost_max: string
}

export function filterToForm(filter: Partial<CatalogFilterSettings> | undefined): FilterFormValues {
  const ids = (list: string[] | undefined) => [...(list ?? [])]
  return {
    include_category_ids: ids(filter?.include_category_ids),
    exclude_category_ids: ids(filter?.exclude_category_ids),
    include_brand_ids: ids(filter?.include_brand_ids),
    exclude_brand_ids: ids(filter?.exclude_brand_ids),
    in_stock_only: filter?.in_stock_only ?? false,
    new_only: filter?.new_only ?? false,
    cost_min: filter?.cost_min ?? "",
    cost_max: filter?.cost_max ?? "",
  }
}

/** The body's `filter`: the server validates it (ids, amounts) and names the field it refuses. */
export function filterBody(values: FilterFormValues): Record<string, unknown> {
  const ids = (list: string[]) => [...new Set(list)]
  const amount = (text: string) => (text.trim() === "" ? null : text.trim())
  return {
    include_category_ids: ids(values.include_category_ids),
    exclude_category_ids: ids(values.exclude_category_ids),
    include_brand_ids: ids(values.include_brand_ids),
    exclude_brand_ids: ids(values.exclude_brand_ids),
    in_stock_only: values.in_stock_only,
    new_only: values.new_only,
    cost_min: amount(values.cost_min),
    cost_max: amount(values.cost_max),
  }
}

/** "filter.include_brand_ids.0" → "include_brand_ids" (the form field an API refusal belongs to). */
export function filterFieldOf(apiField: string): keyof FilterFormValues | null {
  const [head, name] = apiField.split(".")
  return head === "filter" && name ? (name as keyof FilterFormValues) : null
}

/** What the count cannot apply, in the words the form's checkboxes use. */
const NOT_COUNTED_WORDS: Record<FilterKeptCount["not_counted"][number], string> = {
  in_stock_only: "whether a product is in stock",
  new_only: "whether a product is a new arrival",
}

/**
 * The count's sentence: kept of the products the last full pass read that the catalog still has, the shop's own number when
 * it differs, and in plain words the conditions the count could not apply.
 */
export function keptSentence(count: FilterKeptCount): string {
  if (count.pass_finished_at === null) return "No full pass has finished yet: there is nothing to count the filter against."
  const when = count.pass_finished_at ? ` (finished ${formatDateTime(count.pass_finished_at)})` : ""
  // Removals since the pass take their products' records with them: the total is what that pass
  // read less what the catalog removed since, not what it read (issue 43, third review).
  const parts = [
    `Keeps ${formatCount(count.kept)} of the ${formatCount(count.total)} catalog products from the last full pass${when} that the catalog still has.`,
  ]
  if (count.shop_products !== undefined && count.shop_products !== count.total) {
    parts.push(`The shop holds ${formatCount(count.shop_products)} products from the catalog now.`)
  }
  if (count.not_counted.length) {
    const words = count.not_counted.map((field) => NOT_COUNTED_WORDS[field])
    // The count reads what the plugin keeps of each catalog product (category, brand, cost); the
    // catalog's stock and "new" flag of a product the filter would leave out are not kept anywhere.
    parts.push(`Not counted: ${words.join(" and ")}, which the record of the last pass does not keep, so the true number may be lower.`)
  }
  return parts.join(" ")
}
