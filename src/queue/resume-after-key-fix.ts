// A key the catalog accepts, saved after the catalog refused the old one (401 invalid_api_key,
// 403 plan_required), un-sticks the shop at once: the blocked state is cleared and the work the
// refusal stopped is queued now, not at the next scheduled poll.
import type { EffectiveSettings } from "../sync/settings"
import { isConfigured } from "../sync/settings"
import { isRefusalCode } from "../sync/failure-class"
import type { EnqueueResult } from "./catalog-sync-queue"
import type { CatalogSyncModuleService, RunMode } from "./types"

type QueueLike = { enqueueRun(input: { mode: RunMode; trigger: "settings"; behindActive: true }): Promise<EnqueueResult> }
type RunLike = { mode?: string | null; status?: string | null; error_code?: string | null }
type ServiceLike = Pick<CatalogSyncModuleService, "getState" | "updateCatalogSyncStates"> & {
  listCatalogSyncRuns(filter: object, config: object): Promise<RunLike[]>
}

/**
 * Call only after the saved key was verified against /v1/me. Returns the queued run, or null when
 * nothing was blocked by the key (or the sync cannot run: not configured, disabled).
 */
export async function resumeWorkBlockedByKey(input: { service: ServiceLike; queue: QueueLike; settings: EffectiveSettings }): Promise<EnqueueResult | null> {
  const { service, queue, settings } = input
  if (!isConfigured(settings) || !settings.enabled) return null
  const state = await service.getState()
  const [last] = await service.listCatalogSyncRuns({ status: ["succeeded", "failed", "interrupted"] }, { order: { created_at: "DESC" }, take: 1 })
  const lastRefused = last?.status === "failed" && isRefusalCode(last.error_code)
  if (!state.blocked_code && !lastRefused) return null
  if (state.blocked_code) await service.updateCatalogSyncStates({ id: state.id, blocked_code: null, blocked_message: null, blocked_revision: null })
  // The refused run's own kind: a full pass stays a full pass, a reprice a reprice.
  const mode: RunMode = last?.mode === "full" || last?.mode === "reprice" ? last.mode : "changes"
  return queue.enqueueRun({ mode, trigger: "settings", behindActive: true })
}
