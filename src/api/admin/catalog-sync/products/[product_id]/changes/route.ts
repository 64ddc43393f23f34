// GET /admin/catalog-sync/products/:product_id/changes: the last changes the catalog made to a
// shop product (newest first, at most 5), for the product page's catalog widget.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { CATALOG_SYNC_MODULE } from "../../../../../../modules/catalog_sync/module-name"

type Service = { listCatalogSyncRunChanges(filter: unknown, config: unknown): Promise<Record<string, unknown>[]> }

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const service = req.scope.resolve<Service>(CATALOG_SYNC_MODULE)
  const changes = await service.listCatalogSyncRunChanges({ product_id: req.params.product_id }, { order: { created_at: "DESC" }, take: 5 })
  res.json({ changes: changes.map(({ deleted_at: _d, updated_at: _u, ...row }) => row) })
}
