// GET /admin/catalog-sync/runs/:id: one run with its rejected items.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { catalogSyncService, serializeRun } from "../../helpers"

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const [run] = await catalogSyncService(req.scope).listCatalogSyncRuns({ id: req.params.id }, { take: 1 })
  if (!run) {
    res.status(404).json({ type: "not_found", message: `Catalog sync run ${req.params.id} was not found` })
    return
  }
  res.json({ run: serializeRun(run, { withRejected: true }) })
}
