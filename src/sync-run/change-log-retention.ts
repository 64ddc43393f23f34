// Change-log rows are kept CHANGE_LOG_RETENTION_DAYS days (the run rows and their counts stay):
// older rows are deleted when a run ends, so the table holds at most a month of changes.
import type { MedusaContainer } from "@medusajs/framework/types"
import { CHANGE_LOG_RETENTION_DAYS } from "../sync/change-log-policy"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"

type Service = { deleteCatalogSyncRunChanges(selector: Record<string, unknown>): Promise<void> }

export function retentionCutoff(now: Date, days = CHANGE_LOG_RETENTION_DAYS): Date {
  return new Date(now.getTime() - days * 86_400_000)
}

export async function pruneChangeLog(container: MedusaContainer, now = new Date()): Promise<void> {
  const service = container.resolve(CATALOG_SYNC_MODULE) as unknown as Service
  await service.deleteCatalogSyncRunChanges({ created_at: { $lt: retentionCutoff(now) } })
}
