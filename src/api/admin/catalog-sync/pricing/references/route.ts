// GET /admin/catalog-sync/pricing/references: the synced category tree (Medusa product
// categories this plugin owns, by catalog id) and brands (the data module's catalog_brand), for
// the rules editor's pickers. Rules name categories and brands by catalog id.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { isOwnCategory } from "../../../../../workflows/extras/plan-categories"
import { listExistingCategories } from "../../../../../workflows/extras/categories"
import { catalogSyncService } from "../../helpers"

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const existing = (await listExistingCategories(req.scope)).filter((c) => isOwnCategory(c) && c.is_active)
  const catalogIdOf = new Map(existing.map((c) => [c.id, c.external_id as string]))
  const categories = existing
    .map((c) => ({ id: c.external_id as string, name: c.name, parent_id: c.parent_category_id ? (catalogIdOf.get(c.parent_category_id) ?? null) : null }))
    .sort((a, b) => a.name.localeCompare(b.name))
  const brands = (await catalogSyncService(req.scope).listCatalogBrands({}, { select: ["catalog_id", "name"], take: null }))
    .map((b) => ({ id: b.catalog_id, name: b.name }))
    .sort((a, b) => a.name.localeCompare(b.name))
  res.json({ categories, brands })
}
