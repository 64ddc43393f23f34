// GET /admin/catalog-sync/progress: the running run (from its record), the last finished one
// and the expected total. The dashboard's top bar polls it on every page, so unlike /status it
// never calls the catalog (/v1/me costs a request of the daily quota) nor the queue.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { CATALOG_SYNC_MODULE } from "../../../../modules/catalog_sync/module-name"
import { serializeRun } from "../helpers"
import { expectedCatalogTotal } from "../../../../sync-run/expected-total"

type RunRecord = NonNullable<Parameters<typeof serializeRun>[0]>
type Service = { listCatalogSyncRuns(filter: unknown, config: unknown): Promise<RunRecord[]> }

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const service = req.scope.resolve<Service>(CATALOG_SYNC_MODULE)
  const [[running], [last]] = await Promise.all([
    service.listCatalogSyncRuns({ status: ["running", "queued"] }, { order: { created_at: "DESC" }, take: 1 }),
    service.listCatalogSyncRuns({ status: ["succeeded", "failed", "interrupted"] }, { order: { created_at: "DESC" }, take: 1 }),
  ])
  const expected = running ? await expectedCatalogTotal(req.scope, running.started_at as Date | string | null, running.id as string) : { total: null, source: null }
  res.json({
    running_run: serializeRun(running ?? null),
    last_run: serializeRun(last ?? null),
    expected_total: expected.total,
    expected_total_source: expected.source,
  })
}
