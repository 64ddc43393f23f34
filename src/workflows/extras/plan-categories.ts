// Pure: the catalog's category list + the categories this plugin already made → what to
// create (parents before children), update (renamed, moved, re-slugged, reactivated) and
// deactivate (vanished). Vanished categories are deactivated, not deleted: a category may
// still hold products until their cards move, Medusa refuses to delete a parent, and a
// category that comes back is simply reactivated with its id, handle and links intact.
import type { Category } from "../../catalog-client/schemas"
import { otherLanguage } from "../../sync/card-details"
import type { Language } from "../../sync/settings/language"
import { stableJson } from "../../sync/fingerprint"

export interface ExistingCategory {
  id: string
  external_id: string | null
  name: string
  handle: string
  parent_category_id: string | null
  is_active: boolean
  metadata?: Record<string, unknown> | null
}

export interface DesiredCategory {
  catalogId: string
  parentCatalogId: string | null
  name: string
  handle: string
  /** Category name in the non-primary language (null when the catalog gives none). */
  otherName: string | null
  metadata: Record<string, unknown>
}

export interface CategoryPlan {
  /** Creations grouped by depth: every parent is created in an earlier level or exists already. */
  createLevels: DesiredCategory[][]
  /** Changes to categories that exist: `parentCatalogId` is resolved after creation. */
  updates: { id: string; desired: DesiredCategory; changes: Array<"name" | "handle" | "parent" | "active" | "metadata"> }[]
  deactivate: string[]
  /** Every desired category (for translations and the id map). */
  desired: DesiredCategory[]
}

/** Marks categories this plugin owns; external_id alone may be used by other integrations. */
export const CATEGORY_SOURCE = "catalog-sync"

function clean(value: string | null | undefined): string | null {
  const t = value?.trim()
  return t ? t : null
}

export function handleFrom(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/[\s_]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "")
}

function nameIn(c: Category, language: Language): string | null {
  return clean(language === "uk" ? c.name_uk : c.name_ru)
}

export function isOwnCategory(c: ExistingCategory): boolean {
  return c.external_id !== null && c.metadata?.source === CATEGORY_SOURCE
}

/**
 * Parent ids that point at an unknown category, or that would close a cycle, are
 * treated as roots: a broken reference must not hide a category.
 */
function parentsWithoutCycles(categories: Category[]): Map<string, string | null> {
  const known = new Set(categories.map((c) => c.id))
  const parent = new Map<string, string | null>()
  for (const c of categories) parent.set(c.id, c.parent_id && known.has(c.parent_id) && c.parent_id !== c.id ? c.parent_id : null)
  for (const c of categories) {
    const seen = new Set<string>([c.id])
    let p = parent.get(c.id) ?? null
    while (p !== null) {
      if (seen.has(p)) {
        parent.set(c.id, null)
        break
      }
      seen.add(p)
      p = parent.get(p) ?? null
    }
  }
  return parent
}

export function desiredCategories(categories: Category[], primary: Language, existing: ExistingCategory[]): DesiredCategory[] {
  // First occurrence of an id wins; a repeated id is a feed error, not two categories.
  const unique = new Map<string, Category>()
  for (const c of categories) if (!unique.has(c.id)) unique.set(c.id, c)
  const list = [...unique.values()]
  const parents = parentsWithoutCycles(list)

  // Handles are unique across the whole shop: the catalog slug when free, else slug-id.
  // Handles held by other categories, including this plugin's vanished (deactivated) ones.
  const listed = new Set(list.map((c) => c.id))
  const takenByOthers = new Set(existing.filter((c) => !isOwnCategory(c) || !listed.has(c.external_id as string)).map((c) => c.handle))
  const wanted = new Map<string, number>()
  const baseHandle = (c: Category) => handleFrom(clean(c.slug) ?? nameIn(c, primary) ?? clean(c.name) ?? "") || `category-${c.id}`
  for (const c of list) wanted.set(baseHandle(c), (wanted.get(baseHandle(c)) ?? 0) + 1)

  return list.map((c) => {
    const base = baseHandle(c)
    const handle = wanted.get(base)! > 1 || takenByOthers.has(base) ? `${base}-${c.id}` : base
    const name = nameIn(c, primary) ?? clean(c.name) ?? nameIn(c, otherLanguage(primary)) ?? `Category ${c.id}`
    const otherName = nameIn(c, otherLanguage(primary))
    return {
      catalogId: c.id,
      parentCatalogId: parents.get(c.id) ?? null,
      name,
      handle,
      otherName,
      metadata: {
        source: CATEGORY_SOURCE,
        catalog_id: c.id,
        catalog_parent_id: c.parent_id ?? null,
        slug: clean(c.slug),
        names: { uk: nameIn(c, "uk"), ru: nameIn(c, "ru") },
        // The other language for storefronts without the translation module.
        translations: otherName ? { [otherLanguage(primary)]: { name: otherName } } : {},
      },
    }
  })
}

/** Equal as JSON whatever the key order (jsonb hands objects back in its own key order). */
function sameJson(a: unknown, b: unknown): boolean {
  return stableJson(a) === stableJson(b)
}

export function planCategories(categories: Category[], primary: Language, existing: ExistingCategory[]): CategoryPlan {
  const desired = desiredCategories(categories, primary, existing)
  const own = new Map(existing.filter(isOwnCategory).map((c) => [c.external_id as string, c]))
  const idToCatalogId = new Map(existing.filter(isOwnCategory).map((c) => [c.id, c.external_id as string]))
  const byCatalogId = new Map(desired.map((d) => [d.catalogId, d]))

  const updates: CategoryPlan["updates"] = []
  const toCreate: DesiredCategory[] = []
  for (const d of desired) {
    const current = own.get(d.catalogId)
    if (!current) {
      toCreate.push(d)
      continue
    }
    const changes: CategoryPlan["updates"][number]["changes"] = []
    if (current.name !== d.name) changes.push("name")
    if (current.handle !== d.handle) changes.push("handle")
    const currentParent = current.parent_category_id ? (idToCatalogId.get(current.parent_category_id) ?? "?") : null
    if (currentParent !== d.parentCatalogId) changes.push("parent")
    if (!current.is_active) changes.push("active")
    if (!sameJson(current.metadata, d.metadata)) changes.push("metadata")
    if (changes.length) updates.push({ id: current.id, desired: d, changes })
  }

  // Depth levels among the categories to create: a parent that exists already is depth 0's parent.
  const creating = new Set(toCreate.map((d) => d.catalogId))
  const depth = new Map<string, number>()
  const depthOf = (d: DesiredCategory): number => {
    const known = depth.get(d.catalogId)
    if (known !== undefined) return known
    const parent = d.parentCatalogId && creating.has(d.parentCatalogId) ? byCatalogId.get(d.parentCatalogId)! : null
    const value = parent ? depthOf(parent) + 1 : 0
    depth.set(d.catalogId, value)
    return value
  }
  const createLevels: DesiredCategory[][] = []
  for (const d of toCreate) (createLevels[depthOf(d)] ??= []).push(d)

  const deactivate = existing.filter((c) => isOwnCategory(c) && c.is_active && !byCatalogId.has(c.external_id as string)).map((c) => c.id)

  return { createLevels: createLevels.filter(Boolean), updates, deactivate, desired }
}
