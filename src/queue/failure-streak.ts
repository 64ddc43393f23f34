// "Failed twice in a row": the failed runs since the last run that succeeded. Runs that paused or
// were interrupted neither break nor extend a streak; a retry's failure counts like any other.
import type { CatalogSyncModuleService } from "../modules/catalog_sync"

export type FailureStreak = { runId: string; since: string | null; errorCode: string | null; errorMessage: string | null }

type RunLister = Pick<CatalogSyncModuleService, "listCatalogSyncRuns">

/** The streak's latest failure, when two or more runs failed since the last success; else null. */
export async function latestFailureStreak(service: RunLister): Promise<FailureStreak | null> {
  const [lastSuccess] = await service.listCatalogSyncRuns({ status: "succeeded" }, { order: { created_at: "DESC" }, take: 1, select: ["id", "created_at"] })
  const failed = await service.listCatalogSyncRuns(
    { status: "failed", ...(lastSuccess?.created_at ? { created_at: { $gt: lastSuccess.created_at } } : {}) },
    { order: { created_at: "DESC" }, take: 2, select: ["id", "error_code", "error_message"] }
  )
  if (failed.length < 2) return null
  return { runId: failed[0].id, since: lastSuccess?.id ?? null, errorCode: failed[0].error_code ?? null, errorMessage: failed[0].error_message ?? null }
}
