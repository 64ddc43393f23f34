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
  const removeKey = () => service.saveSettings({ api_key: null })
  let queue: Awaited<ReturnType<typeof runtime.queue>> | null = null
  let saved: Awaited<ReturnType<typeof removeKey>> | null = null
  try {
    queue = await runtime.queue()
    // Under the enqueue mutex, which a starting run holds while it reads its settings: a run
    // either read them before (it holds the run lock, and this is refused) or reads no key.
    const outcome = await queue.whileNoRunHoldsTheLock(removeKey)
    if ("running_run_id" in outcome) return { ok: false, running_run_id: outcome.running_run_id }
    saved = outcome.done
  } catch (e: any) {
    // Redis unreachable: no run can start either (it reads its settings under the same mutex).
    logger.warn(`catalog sync: disconnect could not read the queue: ${e?.message ?? e}`)
  }
  saved ??= await removeKey()
  forgetCachedAccounts()
  try {
    await queue?.syncSchedule(saved)
  } catch (e: any) {
    logger.warn(`catalog sync: key removed, but the schedule could not be updated: ${e?.message ?? e}`)
  }
  logger.info("catalog sync: the saved API key was removed (disconnect)")
  return { ok: true, body: { settings: toPublicSettings(saved), options_key_applies: !!saved.apiKey } }
}
