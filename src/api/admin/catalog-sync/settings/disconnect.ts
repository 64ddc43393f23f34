// Disconnecting the catalog: the saved key is removed (the encrypted blob, its last 4 and its
// hash), the poll schedule is dropped (a sync without a key cannot run; a queued one fails as
// not_configured without calling the catalog), and the cached /v1/me answers are forgotten.
// Refused while a run is running: that run holds the key in memory and would go on using it.
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { toPublicSettings } from "../../../../sync/settings"
import { catalogSyncRuntime, catalogSyncService, forgetCachedAccounts } from "../helpers"

type Scope = Pick<MedusaContainer, "resolve">

export const SYNC_RUNNING_MESSAGE = "A sync is running with this key. Disconnect when it has finished."

export type DisconnectOutcome =
  | { ok: false; running_run_id: string }
  | {
      ok: true
      body: {
        settings: ReturnType<typeof toPublicSettings>
        /** The plugin options (medusa-config) also hold a key, which now applies: remove it there to disconnect fully. */
        options_key_applies: boolean
      }
    }

export async function disconnectCatalog(scope: Scope): Promise<DisconnectOutcome> {
  const service = catalogSyncService(scope)
  const runtime = catalogSyncRuntime(scope)
  const logger = scope.resolve<Logger>("logger")
  let queue: Awaited<ReturnType<typeof runtime.queue>> | null = null
  try {
    queue = await runtime.queue()
    const running = (await queue.interruptDeadRunsAndListLive()).find((run) => run.status === "running")
    if (running) return { ok: false, running_run_id: running.id }
  } catch (e: any) {
    logger.warn(`catalog sync: disconnect could not read the queue: ${e?.message ?? e}`)
  }
  const saved = await service.saveSettings({ api_key: null })
  forgetCachedAccounts()
  try {
    await queue?.syncSchedule(saved)
  } catch (e: any) {
    logger.warn(`catalog sync: key removed, but the schedule could not be updated: ${e?.message ?? e}`)
  }
  logger.info("catalog sync: the saved API key was removed (disconnect)")
  return { ok: true, body: { settings: toPublicSettings(saved), options_key_applies: !!saved.apiKey } }
}
