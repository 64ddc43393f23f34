// POST /admin/catalog-sync/filter/count: how many catalog products a filter (not yet saved)
// keeps, counted over the stored cost rows of the products the last complete full pass read (no
// API request), beside the number of products the shop holds from the catalog now.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { catalogFilterInputSchema } from "../../../../../catalog-filter/filter"
import { countKept } from "../../../../../catalog-filter/kept-count"
import { loadCatalogCategoryTree } from "../../../../../sync-run/catalog-category-tree"
import { lastCompletedPass } from "../../../../../sync-run/expected-total"
import { costRowsSeenInPass } from "../../../../../modules/catalog_sync/sql/variant-costs"
import { liveMappedProductCount } from "../../../../../modules/catalog_sync/sql/product-map"
import { invalidData } from "../../helpers"
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
  const pass = await lastCompletedPass(req.scope)
  const rows = pass ? await costRowsSeenInPass(req.scope, pass.passId) : []
  const tree = await loadCatalogCategoryTree(req.scope as never)
  res.json({
    ...countKept(rows, parsed.data, tree),
    pass_finished_at: pass?.finishedAt ?? null,
    shop_products: await liveMappedProductCount(req.scope),
  })
}
