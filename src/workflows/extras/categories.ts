// /v1/categories → Medusa's product category tree. The catalog id is the category's
// external_id (plus metadata.source, so categories of other integrations are left alone).
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createProductCategoriesWorkflow, updateProductCategoriesWorkflow } from "@medusajs/medusa/core-flows"
import type { Category } from "../../catalog-client/schemas"
import { LOCALE_BY_LANGUAGE, otherLanguage, type Language } from "../../sync/card-details"
import { isOwnCategory, planCategories, type DesiredCategory, type ExistingCategory } from "./plan-categories"
import { syncTranslations } from "./translations"

export async function listExistingCategories(container: MedusaContainer): Promise<ExistingCategory[]> {
  const productModule = container.resolve(Modules.PRODUCT)
  const rows = await productModule.listProductCategories(
    {},
    { select: ["id", "external_id", "name", "handle", "parent_category_id", "is_active", "metadata"], take: null },
  )
  return rows as unknown as ExistingCategory[]
}

/** catalog id → Medusa category id, for the active categories this plugin owns. */
export function categoryMap(existing: ExistingCategory[]): Map<string, string> {
  return new Map(existing.filter((c) => isOwnCategory(c) && c.is_active).map((c) => [c.external_id as string, c.id]))
}

export interface CategoryApplyResult {
  created: number
  updated: number
  deactivated: number
  map: Map<string, string>
}

/** Creates, renames, moves, reactivates and deactivates so the tree matches the catalog. */
export async function applyCategories(
  container: MedusaContainer,
  categories: Category[],
  primary: Language,
): Promise<CategoryApplyResult> {
  const existing = await listExistingCategories(container)
  const plan = planCategories(categories, primary, existing)
  const idByCatalogId = new Map(existing.filter(isOwnCategory).map((c) => [c.external_id as string, c.id]))
  const parentId = (d: DesiredCategory) => (d.parentCatalogId ? idByCatalogId.get(d.parentCatalogId) ?? null : null)

  let created = 0
  for (const level of plan.createLevels) {
    const { result } = await createProductCategoriesWorkflow(container).run({
      input: {
        product_categories: level.map((d) => ({
          name: d.name,
          handle: d.handle,
          is_active: true,
          is_internal: false,
          external_id: d.catalogId,
          parent_category_id: parentId(d),
          metadata: d.metadata,
        })),
      },
    })
    for (const row of result as { id: string; external_id: string | null }[]) {
      if (row.external_id) idByCatalogId.set(row.external_id, row.id)
    }
    created += level.length
  }

  // Updates are per category (each has its own values); they only happen when the catalog changed.
  for (const u of plan.updates) {
    await updateProductCategoriesWorkflow(container).run({
      input: {
        selector: { id: u.id },
        update: {
          name: u.desired.name,
          handle: u.desired.handle,
          parent_category_id: parentId(u.desired),
          is_active: true,
          metadata: u.desired.metadata,
        },
      },
    })
  }
  if (plan.deactivate.length) {
    await updateProductCategoriesWorkflow(container).run({
      input: { selector: { id: plan.deactivate }, update: { is_active: false } },
    })
  }

  // Category names in the other language, where the catalog gives them.
  const otherLocale = LOCALE_BY_LANGUAGE[otherLanguage(primary)]
  const desiredTranslations = new Map<string, Record<string, Record<string, string | null>>>()
  for (const d of plan.desired) {
    const id = idByCatalogId.get(d.catalogId)
    if (id) desiredTranslations.set(id, d.otherName ? { [otherLocale]: { name: d.otherName } } : {})
  }
  await syncTranslations(container, "product_category", desiredTranslations)

  const map = new Map<string, string>()
  for (const d of plan.desired) {
    const id = idByCatalogId.get(d.catalogId)
    if (id) map.set(d.catalogId, id)
  }
  return { created, updated: plan.updates.length, deactivated: plan.deactivate.length, map }
}
