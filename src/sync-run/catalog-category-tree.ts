// The catalog's category tree as the shop holds it (the plugin's own Medusa categories: catalog
// id = external_id, parent = the parent's external_id), for the pricing rules' inheritance
// down the tree. Read from the shop, so a reprice needs no API request.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ancestorsOf, buildCategoryTree, type CategoryTree } from "../catalog-filter/category-tree"
import { listExistingCategories } from "../workflows/extras/categories"
import { isOwnCategory } from "../workflows/extras/plan-categories"

export async function loadCatalogCategoryTree(container: MedusaContainer): Promise<CategoryTree> {
  const own = (await listExistingCategories(container)).filter(isOwnCategory)
  const catalogIdOf = new Map(own.map((c) => [c.id, c.external_id as string]))
  return buildCategoryTree(
    own.map((c) => ({ id: c.external_id as string, parent_id: c.parent_category_id ? (catalogIdOf.get(c.parent_category_id) ?? null) : null }))
  )
}

/** Catalog category ids from the root down to the category ([] when none). */
export function categoryPathIn(tree: CategoryTree): (catalogCategoryId: string | null) => string[] {
  return (id) => (id ? ancestorsOf(id, tree).reverse() : [])
}
