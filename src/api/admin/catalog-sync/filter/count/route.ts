// POST /admin/catalog-sync/filter/count: how many catalog products a filter (not yet saved)
// keeps, counted over the stored cost rows of the last pass (no API request).
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { catalogFilterInputSchema } from "../../../../../catalog-filter/filter"
import { countKept, type StoredCostRow } from "../../../../../catalog-filter/kept-count"
import { loadCatalogCategoryTree } from "../../../../../sync-run/catalog-category-tree"
import { catalogSyncService, invalidData } from "../../helpers"
import { loadKnownReferences, unknownReferenceErrors } from "../../known-references"

export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const body = (req.body ?? {}) as { filter?: unknown }
  const parsed = catalogFilterInputSchema.safeParse(body.filter ?? {})
  if (!parsed.success) {
    return invalidData(
      res,
      parsed.error.issues.map((i) =>
        i.code === "unrecognized_keys"
          ? { field: `filter.${String(i.keys[0] ?? "")}`, message: "is not a filter field" }
          : { field: ["filter", ...i.path.map(String)].join("."), message: i.message }
      )
    )
  }
  const unknownIds = unknownReferenceErrors(await loadKnownReferences(req.scope), { filter: parsed.data })
  if (unknownIds.length) return invalidData(res, unknownIds)
  const service = catalogSyncService(req.scope) as unknown as {
    listCatalogVariantCosts(filters: object, config: object): Promise<StoredCostRow[]>
  }
  const rows = await service.listCatalogVariantCosts({}, { select: ["catalog_id", "category_id", "brand_id", "cost"], take: null })
  const tree = await loadCatalogCategoryTree(req.scope as never)
  res.json(countKept(rows, parsed.data, tree))
}
