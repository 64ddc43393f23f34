// Category and brand ids an admin names (the filter, the pricing rules' overrides) must be ones
// the catalog has: the shop holds the catalog's whole category tree and brand list after its
// first sync (src/workflows/extras), so an id outside them is a mistake, named in the 400.
// Before the first sync the shop holds neither list, and ids cannot be checked yet.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { CatalogFilter } from "../../../catalog-filter/filter"
import type { PricingRules } from "../../../pricing/rules"
import type { FieldError } from "../../../sync/settings"
import { listExistingCategories } from "../../../workflows/extras/categories"
import { isOwnCategory } from "../../../workflows/extras/plan-categories"
import { catalogSyncService } from "./helpers"

/** The catalog ids the shop holds, per kind; null: none synced yet (nothing to check against). */
export type KnownReferences = { categories: ReadonlySet<string> | null; brands: ReadonlySet<string> | null }

type Scope = Pick<MedusaContainer, "resolve">

export async function loadKnownReferences(scope: Scope): Promise<KnownReferences> {
  const categories = (await listExistingCategories(scope as MedusaContainer)).filter((c) => isOwnCategory(c) && c.is_active).map((c) => c.external_id as string)
  const brands = (await catalogSyncService(scope).listCatalogBrands({}, { select: ["catalog_id"], take: null })).map((b) => String(b.catalog_id))
  return {
    categories: categories.length ? new Set(categories) : null,
    brands: brands.length ? new Set(brands) : null,
  }
}

const FILTER_LISTS = [
  ["include_category_ids", "categories"],
  ["exclude_category_ids", "categories"],
  ["include_brand_ids", "brands"],
  ["exclude_brand_ids", "brands"],
] as const

/** Shown at most this many ids in one message (a pasted list of thousands stays readable). */
const NAMED_AT_MOST = 10

function namedIds(ids: string[]): string {
  const shown = ids.slice(0, NAMED_AT_MOST).join(", ")
  return ids.length > NAMED_AT_MOST ? `${shown} and ${ids.length - NAMED_AT_MOST} more` : shown
}

const NOUN = { categories: "category", brands: "brand" } as const

/** The filter's and the rules' ids the catalog does not have, each named under its field (prefix: "filter"). */
export function unknownReferenceErrors(
  known: KnownReferences,
  input: { filter?: CatalogFilter; filterField?: string; pricing_rules?: PricingRules | null }
): FieldError[] {
  const errors: FieldError[] = []
  if (input.filter) {
    for (const [field, kind] of FILTER_LISTS) {
      const set = known[kind]
      if (!set) continue
      const unknown = input.filter[field].filter((id) => !set.has(id))
      if (unknown.length) {
        errors.push({
          field: `${input.filterField ?? "filter"}.${field}`,
          message: `must name catalog ${kind} the shop has synced; unknown ${NOUN[kind]} ${unknown.length > 1 ? "ids" : "id"}: ${namedIds(unknown)}`,
        })
      }
    }
  }
  input.pricing_rules?.overrides.forEach((o, i) => {
    if (o.type === "cost_band") return
    const [kind, id, field] = o.type === "category" ? (["categories", o.category_id, "category_id"] as const) : (["brands", o.brand_id, "brand_id"] as const)
    const set = known[kind]
    if (set && !set.has(id)) {
      errors.push({ field: `pricing_rules.overrides[${i}].${field}`, message: `must be a catalog ${NOUN[kind]} the shop has synced; unknown id: ${id}` })
    }
  })
  return errors
}
