// GET /admin/catalog-sync/products/:product_id/changes: the last changes the sync made to a shop
// product (newest first, at most 5), for the product page's catalog widget. Each names its run's
// mode and trigger (`run_mode`, `run_trigger`): a reprice or a pricing-rules pass is the shop's
// own rules at work, not a change the catalog made.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { CATALOG_SYNC_MODULE } from "../../../../../../modules/catalog_sync/module-name"

type Service = {
  listCatalogSyncRunChanges(filter: unknown, config: unknown): Promise<Record<string, unknown>[]>
  listCatalogSyncRuns(filter: unknown, config: unknown): Promise<{ id: string; mode: string; trigger: string }[]>
}

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const service = req.scope.resolve<Service>(CATALOG_SYNC_MODULE)
  const changes = await service.listCatalogSyncRunChanges({ product_id: req.params.product_id }, { order: { created_at: "DESC" }, take: 5 })
  const runIds = [...new Set(changes.map((c) => c.run_id).filter((id): id is string => typeof id === "string"))]
  const runs = runIds.length ? await service.listCatalogSyncRuns({ id: runIds }, { select: ["id", "mode", "trigger"], take: runIds.length }) : []
  const byId = new Map(runs.map((r) => [r.id, r]))
  res.json({
    changes: changes.map(({ deleted_at: _d, updated_at: _u, ...row }) => {
      const run = byId.get(row.run_id as string)
      return { ...row, run_mode: run?.mode ?? null, run_trigger: run?.trigger ?? null }
    }),
  })
}
