// The first full sync starts as soon as the shop can sync, not at the first scheduled poll:
// when a working key is saved in the admin (whatever else changed, pricing included or not),
// and at boot when the plugin options already hold the base URL and key. "Never synced" is the
// sync state's phase "never": no pass has started yet (a first run that failed before storing
// a cursor leaves it there, so the next save or boot tries again).
import type { EffectiveSettings } from "../sync/settings"
import { isConfigured } from "../sync/settings"
import type { EnqueueResult } from "./catalog-sync-queue"
import { isBlocked, type CatalogSyncModuleService } from "./types"

type QueueLike = { enqueueRun(input: { mode: "full"; trigger: "settings" }): Promise<EnqueueResult> }

/**
 * Queues a full run when the shop never synced, is configured and enabled, and the key is not
 * known to be refused for these settings. Returns the queued (or already active) run, or null
 * when nothing was due. An active run is reused, never doubled.
 */
export async function queueFirstSyncIfNeverSynced(input: {
  service: Pick<CatalogSyncModuleService, "getEffectiveSettings" | "getState">
  queue: QueueLike
  settings?: EffectiveSettings
}): Promise<EnqueueResult | null> {
  const settings = input.settings ?? (await input.service.getEffectiveSettings())
  if (!isConfigured(settings) || !settings.enabled) return null
  const state = await input.service.getState()
  if ((state.phase ?? "never") !== "never" || state.cursor) return null
  if (isBlocked(state, settings)) return null
  return input.queue.enqueueRun({ mode: "full", trigger: "settings" })
}
