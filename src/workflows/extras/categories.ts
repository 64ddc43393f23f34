// /v1/categories → Medusa's product category tree. The catalog id is the category's
// external_id (plus metadata.source, so categories of other integrations are left alone).
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createHook, createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { createProductCategoriesWorkflow, updateProductCategoriesWorkflow } from "@medusajs/medusa/core-flows"
import type { Category } from "../../catalog-client/schemas"
import { otherLanguage } from "../../sync/card-details"
import { LOCALE_BY_LANGUAGE } from "../../sync/catalog-product"
import type { Language } from "../../sync/settings/language"
import { isOwnCategory, planCategories, type CategoryPlan, type DesiredCategory, type ExistingCategory } from "./plan-categories"
import { syncTranslations } from "./translations"

export async function listExistingCategories(container: MedusaContainer): Promise<ExistingCategory[]> {
  const productModule = container.resolve(Modules.PRODUCT)
  const rows = await productModule.listProductCategories(
    {},
    { select: ["id", "external_id", "name", "handle", "parent_category_id", "is_active", "metadata"], take: null }
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
  /** catalog id → Medusa category id, for every category of the catalog's list. */
  map: Record<string, string>
}

export interface SyncCategoriesInput {
  categories: Category[]
  primaryLanguage: Language
}

type Translations = Record<string, Record<string, string | null>>

export const listExistingCategoriesStepId = "catalog-sync-list-existing-categories"
export const listExistingCategoriesStep = createStep(listExistingCategoriesStepId, async (_: void, { container }) => {
  return new StepResponse(await listExistingCategories(container))
})

export const applyCategoryPlanStepId = "catalog-sync-apply-category-plan"
/**
 * Creates (level by level, parents first), updates and deactivates. Returns catalog id →
 * category id of the categories this plugin owns, the new ones included.
 */
export const applyCategoryPlanStep = createStep(applyCategoryPlanStepId, async (input: { plan: CategoryPlan; existing: ExistingCategory[] }, { container }) => {
  const { plan, existing } = input
  const idByCatalogId = new Map(existing.filter(isOwnCategory).map((c) => [c.external_id as string, c.id]))
  const parentId = (d: DesiredCategory) => (d.parentCatalogId ? (idByCatalogId.get(d.parentCatalogId) ?? null) : null)

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
  return new StepResponse(Object.fromEntries(idByCatalogId))
})

export const syncCategoryTranslationsStepId = "catalog-sync-sync-category-translations"
/** Category names in the other language (only with Medusa's translation module). */
export const syncCategoryTranslationsStep = createStep(syncCategoryTranslationsStepId, async (desired: Record<string, Translations>, { container }) => {
  await syncTranslations(container, "product_category", new Map(Object.entries(desired)))
  return new StepResponse(undefined)
})

export const syncCategoriesWorkflowId = "catalog-sync-sync-categories"

/**
 * Creates, renames, moves, reactivates and deactivates so the tree matches the catalog's list,
 * then writes the names in the other language. The `categoriesSynced` hook receives the result.
 */
export const syncCategoriesWorkflow = createWorkflow(syncCategoriesWorkflowId, (input: SyncCategoriesInput) => {
  const existing = listExistingCategoriesStep()
  const plan = transform({ input, existing }, ({ input, existing }) => planCategories(input.categories, input.primaryLanguage, existing))
  const idByCatalogId = applyCategoryPlanStep({ plan, existing })

  const translations = transform({ input, plan, idByCatalogId }, ({ input, plan, idByCatalogId }) => {
    const otherLocale = LOCALE_BY_LANGUAGE[otherLanguage(input.primaryLanguage)]
    const desired: Record<string, Translations> = {}
    for (const d of plan.desired) {
      const id = idByCatalogId[d.catalogId]
      if (id) desired[id] = d.otherName ? { [otherLocale]: { name: d.otherName } } : {}
    }
    return desired
  })
  syncCategoryTranslationsStep(translations)

  const result = transform({ plan, idByCatalogId }, ({ plan, idByCatalogId }): CategoryApplyResult => {
    const map: Record<string, string> = {}
    for (const d of plan.desired) {
      const id = idByCatalogId[d.catalogId]
      if (id) map[d.catalogId] = id
    }
    const created = plan.createLevels.reduce((n, level) => n + level.length, 0)
    return { created, updated: plan.updates.length, deactivated: plan.deactivate.length, map }
  })
  const categoriesSynced = createHook("categoriesSynced", { result })
  return new WorkflowResponse(result, { hooks: [categoriesSynced] })
})
