// GET/POST /admin/catalog-sync/settings. The key is never returned (masked ••••1234); a new
// key (or a new base URL) is checked against /v1/me before anything is saved; a pricing
// change starts a full resync, and so does any save of a shop that never synced (its first
// sync); the schedule follows the interval at once.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { Modules } from "@medusajs/framework/utils"
import { encryptionSecretProblem, resolveEncryptionSecret } from "../../../../modules/catalog_sync/secret-crypto"
import { catalogSyncService, encryptionSecretRefusal } from "../../../../queue/catalog-client-factory"
import { catalogSyncRuntime } from "../../../../queue/runtime"
import { queueFirstSyncIfNeverSynced } from "../../../../queue/first-sync"
import { connectionCheckTarget, isConfigured, samePricing, toPublicSettings, validateSettingsPatch } from "../../../../sync/settings"
import { apiErrorBody, fetchAccount, forgetCachedAccounts, invalidData, serializeRun } from "../helpers"

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const settings = await catalogSyncService(req.scope).getEffectiveSettings()
  res.json({ settings: toPublicSettings(settings) })
}

export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const service = catalogSyncService(req.scope)
  const logger = req.scope.resolve("logger") as { warn(m: string): void }
  const current = await service.getEffectiveSettings()
  const validation = validateSettingsPatch(req.body, current)
  if (!validation.ok) return invalidData(res, validation.errors)
  const patch = validation.patch

  const missing = await unknownPlacement(req, patch)
  if (missing) return invalidData(res, [missing])

  const newKey = typeof patch.api_key === "string" ? patch.api_key : null
  const secretProblem = newKey
    ? encryptionSecretProblem(resolveEncryptionSecret(service.getPluginOptions().encryptionKey)) ?? encryptionSecretRefusal(service.getPluginOptions())
    : null
  if (secretProblem) return invalidData(res, [{ field: "api_key", message: `cannot store the key: ${secretProblem}` }])

  // Verify what the run would use when the key or the address changes. The saved key is
  // never sent to a new address: a new base_url needs its api_key in the same request.
  if (typeof patch.base_url === "string" && patch.base_url !== current.baseUrl) {
    const target = connectionCheckTarget({ base_url: patch.base_url, api_key: patch.api_key }, current)
    if (!target.ok) return invalidData(res, target.errors)
  }
  const baseUrl = patch.base_url !== undefined ? patch.base_url : current.baseUrl
  const apiKey = patch.api_key !== undefined ? patch.api_key : current.apiKey
  const addressChanged = patch.base_url !== undefined && patch.base_url !== current.baseUrl
  if ((newKey || addressChanged) && apiKey) {
    if (!baseUrl) return invalidData(res, [{ field: "base_url", message: "is required to verify the API key" }])
    try {
      await fetchAccount({ baseUrl, apiKey, apiKeyHash: null, pricing: current.pricing })
    } catch (e) {
      // Fixed words only (see apiErrorBody): no remote text, no telling a closed port from an open one.
      const err = apiErrorBody(e, req.scope.resolve("logger"), "key check on save")
      if (err.code === "invalid_api_key" || err.code === "plan_required") {
        return invalidData(res, [{ field: "api_key", message: `the catalog API refused the key: ${err.message}` }])
      }
      return invalidData(res, [{ field: newKey ? "api_key" : "base_url", message: `could not verify the key: ${err.message}` }])
    }
  }

  const saved = await service.saveSettings(patch)
  forgetCachedAccounts()
  const pricingChanged = !samePricing(current.pricing, saved.pricing)

  let run: unknown = undefined
  try {
    const queue = await catalogSyncRuntime.queue()
    await queue.syncSchedule(saved)
    if (pricingChanged && isConfigured(saved) && saved.enabled) {
      const { run: queued } = await queue.enqueueRun({ mode: "full", trigger: "settings", behindActive: true })
      run = serializeRun(queued)
    }
    // A shop that never synced starts its first full sync now, whatever changed.
    if (!run) {
      const first = await queueFirstSyncIfNeverSynced({ service, queue, settings: saved })
      if (first) run = serializeRun(first.run)
    }
  } catch (e: any) {
    logger.warn(`catalog sync: settings saved, but the queue could not be updated: ${e?.message ?? e}`)
  }

  res.json({ settings: toPublicSettings(saved), pricing_changed: pricingChanged, ...(run ? { run } : {}) })
}

/** The stock location and sales channel must exist in this shop. */
async function unknownPlacement(
  req: MedusaRequest,
  patch: { stock_location_id?: string | null; sales_channel_id?: string | null }
): Promise<{ field: string; message: string } | null> {
  if (patch.stock_location_id) {
    const service = req.scope.resolve(Modules.STOCK_LOCATION) as { listStockLocations(f: object, c?: object): Promise<unknown[]> }
    const found = await service.listStockLocations({ id: [patch.stock_location_id] }, { take: 1 })
    if (!found.length) return { field: "stock_location_id", message: `no stock location ${patch.stock_location_id} in this shop` }
  }
  if (patch.sales_channel_id) {
    const service = req.scope.resolve(Modules.SALES_CHANNEL) as { listSalesChannels(f: object, c?: object): Promise<unknown[]> }
    const found = await service.listSalesChannels({ id: [patch.sales_channel_id] }, { take: 1 })
    if (!found.length) return { field: "sales_channel_id", message: `no sales channel ${patch.sales_channel_id} in this shop` }
  }
  return null
}
