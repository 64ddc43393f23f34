// Saving the admin's settings, step by step: validate the patch, check the placement exists,
// refuse a key that cannot be stored, verify a new key or address against /v1/me, save, then
// bring the queue in line (schedule, a full resync after a price_calculation change, a reprice after a rules change, a first sync, the
// work a refused key stopped once a key the catalog accepts is saved).
// The route only turns the outcome into HTTP.
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { encryptionSecretProblem } from "../../../../modules/catalog_sync/secret-crypto"
import { queueFirstSyncIfNeverSynced } from "../../../../queue/first-sync"
import { resumeWorkBlockedByKey } from "../../../../queue/resume-after-key-fix"
import {
  connectionCheckTarget,
  isConfigured,
  samePricing,
  toPublicSettings,
  validateSettingsPatch,
  type EffectiveSettings,
  type FieldError,
  type SettingsPatch,
} from "../../../../sync/settings"
import { stableJson } from "../../../../sync/fingerprint"
import { accountProblem } from "../test-connection/account-problem"
import { isBlocked } from "../../../../queue/types"
import { blockOnSave, keyOrAddressChange, type KeyCheck } from "./block-on-save"
import { loadKnownReferences, unknownReferenceErrors } from "../known-references"
import { priceGuardsOf, type PriceGuard } from "../../../../pricing/price-guards"
import { previewRules, type RulesPreview } from "../pricing/preview/preview-plan"
import { readStoredPrices } from "../pricing/stored-prices"
import { apiErrorBody, catalogSyncRuntime, catalogSyncService, fetchAccount, forgetCachedAccounts, serializeRun } from "../helpers"

/** A refusal naming its field; a catalog's answer also carries its code and request id (never inside the message). */
export type SaveFieldError = FieldError & { code?: string; request_id?: string | null; expired_at?: string | null }

/** A rules change that trips a price guard: nothing saved until it comes back confirmed. */
export type PriceGuardConfirmation = { guards: PriceGuard[]; preview: RulesPreview | null; currency_code: "uah" }

export type SaveSettingsOutcome =
  | { ok: false; errors: SaveFieldError[]; confirm?: undefined }
  | { ok: false; confirm: PriceGuardConfirmation; errors?: undefined }
  | {
      ok: true
      body: {
        settings: ReturnType<typeof toPublicSettings>
        pricing_changed: boolean
        /** price_calculation changed (costs depend on it, the only pricing the API is asked): a full pass runs. */
        needs_full_pass: boolean
        /** The rules changed (markup and discount included): a reprice run from the stored costs, no API request. */
        rules_changed: boolean
        message?: string
        run?: ReturnType<typeof serializeRun>
      }
    }

type Scope = Pick<MedusaContainer, "resolve">

/** Validates and saves a settings change; `errors` name the field a 400 reports. */
export async function saveCatalogSyncSettings(scope: Scope, body: unknown): Promise<SaveSettingsOutcome> {
  const service = catalogSyncService(scope)
  const runtime = catalogSyncRuntime(scope)
  const logger = scope.resolve<Logger>("logger")
  const current = await service.getEffectiveSettings()
  const asked = confirmationOf(body)
  if (!asked.ok) return { ok: false, errors: [asked.error] }
  const validation = validateSettingsPatch(asked.body, current)
  if (!validation.ok) return { ok: false, errors: validation.errors }
  const patch = validation.patch

  const missing = await unknownPlacement(scope, patch)
  if (missing) return { ok: false, errors: [missing] }

  if (patch.filter || patch.pricing_rules) {
    const unknownIds = unknownReferenceErrors(await loadKnownReferences(scope), { filter: patch.filter, pricing_rules: patch.pricing_rules })
    if (unknownIds.length) return { ok: false, errors: unknownIds }
  }

  const refused = keyStorageRefusal(patch, runtime.clients)
  if (refused) return { ok: false, errors: [refused] }

  const unverified = await verifyKeyChange(patch, current, runtime.clients, logger)
  if (unverified) return { ok: false, errors: unverified }

  if (!asked.confirmed) {
    const confirm = await priceGuardsToConfirm(scope, patch, current)
    if (confirm) return { ok: false, confirm }
  }

  // A new key or address was just accepted by the catalog (verifyKeyChange); a dropped key is a change too.
  const keyChange = keyOrAddressChange(patch, current.baseUrl)
  // A refused key or plan stays refused through a save that does not change it (blockOnSave).
  const state = await service.getState()
  const blocked = isConfigured(current) && isBlocked(state, current)
  const check = blocked && !keyChange.changed ? await checkSavedKey(current, runtime.clients, logger) : null
  const block = blockOnSave({ blocked, keyOrAddressChanged: keyChange.changed, check })
  const keyVerified = keyChange.verified || block === "lift"
  // Kept through the save: held for every revision while the new one lands (isBlocked), then for the new one.
  if (block === "carry") await service.updateCatalogSyncStates({ id: state.id, blocked_revision: null })
  let saved: EffectiveSettings
  try {
    saved = await service.saveSettings(patch)
  } catch (e) {
    // Not saved: the block is the current settings' again, as before.
    if (block === "carry") await service.updateCatalogSyncStates({ id: state.id, blocked_revision: current.revision }).catch(() => undefined)
    throw e
  }
  if (block === "carry") await service.updateCatalogSyncStates({ id: state.id, blocked_revision: saved.revision })
  forgetCachedAccounts()
  const pricingChanged = !samePricing(current.pricing, saved.pricing)
  const rulesChanged = !pricingChanged && stableJson(current.pricingRules) !== stableJson(saved.pricingRules)
  const reconnected = !isConfigured(current) && isConfigured(saved)
  const run = await followSettings({ saved, pricingChanged, rulesChanged, keyVerified, reconnected, stillBlocked: block === "carry", service, runtime, logger })
  const message = pricingChanged
    ? "price_calculation changed: costs depend on it, so every product is read again (a full pass)"
    : rulesChanged
      ? "Pricing rules changed: prices are recomputed from the stored costs (a reprice run, no API request)"
      : undefined
  return {
    ok: true,
    body: {
      settings: toPublicSettings(saved),
      pricing_changed: pricingChanged,
      needs_full_pass: pricingChanged,
      rules_changed: rulesChanged,
      ...(message ? { message } : {}),
      ...(run ? { run } : {}),
    },
  }
}

/** `confirm_price_guards: true` says the admin saw the guards' preview and wants the change anyway. */
function confirmationOf(body: unknown): { ok: true; body: unknown; confirmed: boolean } | { ok: false; error: FieldError } {
  if (!body || typeof body !== "object" || Array.isArray(body) || !("confirm_price_guards" in body)) return { ok: true, body, confirmed: false }
  const { confirm_price_guards: confirmed, ...rest } = body as Record<string, unknown>
  if (typeof confirmed !== "boolean") return { ok: false, error: { field: "confirm_price_guards", message: "must be true or false" } }
  return { ok: true, body: rest, confirmed }
}

/**
 * The price guards a change trips (src/pricing/price-guards.ts), with the rules preview, or null.
 * The rules (a markup or discount saved as such folded into them) are judged over the stored costs.
 */
async function priceGuardsToConfirm(scope: Scope, patch: SettingsPatch, current: EffectiveSettings): Promise<PriceGuardConfirmation | null> {
  const rules = patch.pricing_rules
  if (rules && stableJson(rules) !== stableJson(current.pricingRules)) {
    const variants = await readStoredPrices(scope as MedusaContainer, patch.price_calculation ?? current.pricing.price_calculation)
    const preview = previewRules(variants, rules)
    const guards = priceGuardsOf(rules, variants, preview.summary)
    return guards.length ? { guards, preview, currency_code: "uah" } : null
  }
  return null
}

/** The stock location and sales channel must exist in this shop. */
async function unknownPlacement(scope: Scope, patch: Pick<SettingsPatch, "stock_location_id" | "sales_channel_id">): Promise<FieldError | null> {
  if (patch.stock_location_id) {
    const locations = scope.resolve(Modules.STOCK_LOCATION) as { listStockLocations(f: object, c?: object): Promise<unknown[]> }
    const found = await locations.listStockLocations({ id: [patch.stock_location_id] }, { take: 1 })
    if (!found.length) return { field: "stock_location_id", message: `no stock location ${patch.stock_location_id} in this shop` }
  }
  if (patch.sales_channel_id) {
    const channels = scope.resolve(Modules.SALES_CHANNEL) as { listSalesChannels(f: object, c?: object): Promise<unknown[]> }
    const found = await channels.listSalesChannels({ id: [patch.sales_channel_id] }, { take: 1 })
    if (!found.length) return { field: "sales_channel_id", message: `no sales channel ${patch.sales_channel_id} in this shop` }
  }
  return null
}

/** A new key is stored encrypted: refused without a secret, or with a weak one. */
function keyStorageRefusal(patch: SettingsPatch, clients: ReturnType<typeof catalogSyncRuntime>["clients"]): FieldError | null {
  if (typeof patch.api_key !== "string") return null
  const problem = encryptionSecretProblem(clients.encryptionSecret()) ?? clients.encryptionSecretRefusal()
  return problem ? { field: "api_key", message: `cannot store the key: ${problem}` } : null
}

/**
 * Verifies what the run would use when the key or the address changes. The saved key is never
 * sent to a new address: a new base_url needs its api_key in the same request.
 */
async function verifyKeyChange(
  patch: SettingsPatch,
  current: EffectiveSettings,
  clients: ReturnType<typeof catalogSyncRuntime>["clients"],
  logger: Logger
): Promise<SaveFieldError[] | null> {
  const newKey = typeof patch.api_key === "string" ? patch.api_key : null
  if (typeof patch.base_url === "string" && patch.base_url !== current.baseUrl) {
    const target = connectionCheckTarget({ base_url: patch.base_url, api_key: patch.api_key }, current)
    if (!target.ok) return target.errors
  }
  const baseUrl = patch.base_url !== undefined ? patch.base_url : current.baseUrl
  const apiKey = patch.api_key !== undefined ? patch.api_key : current.apiKey
  const addressChanged = patch.base_url !== undefined && patch.base_url !== current.baseUrl
  if (!(newKey || addressChanged) || !apiKey) return null
  if (!baseUrl) return [{ field: "base_url", message: "is required to verify the API key" }]
  const field = newKey ? "api_key" : "base_url"
  let account
  try {
    account = (await fetchAccount({ baseUrl, apiKey, apiKeyHash: null, pricing: current.pricing }, clients)).account
  } catch (e) {
    // Fixed words only (see apiErrorBody): no remote text, no telling a closed port from an open one.
    const err = apiErrorBody(e, logger, "key check on save")
    const refusedKey = err.code === "invalid_api_key" || err.code === "plan_required"
    return [{ field: refusedKey ? "api_key" : field, message: err.message, code: err.code, request_id: err.request_id }]
  }
  // Same answer as Test connection: /v1/me works for an expired plan, runs would get 403.
  const problem = accountProblem(account)
  return problem ? [{ field: "api_key", message: problem.message, code: problem.code, request_id: null, expired_at: problem.expired_at }] : null
}

/**
 * Asks /v1/me whether the catalog now accepts the saved key and plan (after a refusal blocked the
 * sync): "accepted" only when it answers and the plan can sync (accountProblem, as Test
 * connection judges it); a 401/403 or a plan that still cannot sync is "refused"; no answer is "unknown".
 */
async function checkSavedKey(current: EffectiveSettings, clients: ReturnType<typeof catalogSyncRuntime>["clients"], logger: Logger): Promise<KeyCheck> {
  if (!current.baseUrl || !current.apiKey) return "unknown"
  try {
    const { account } = await fetchAccount({ baseUrl: current.baseUrl, apiKey: current.apiKey, apiKeyHash: null, pricing: current.pricing }, clients)
    return accountProblem(account) ? "refused" : "accepted"
  } catch (e) {
    const err = apiErrorBody(e, logger, "key check on save (blocked)")
    return err.code === "invalid_api_key" || err.code === "plan_required" ? "refused" : "unknown"
  }
}

/** Whether a pass ever started (the sync state's phase is no longer "never"). */
async function hasSynced(service: ReturnType<typeof catalogSyncService>): Promise<boolean> {
  const state = await service.getState()
  return (state.phase ?? "never") !== "never" || !!state.cursor
}

/**
 * After a save: the schedule follows the interval at once; a shop that never synced starts its
 * first full sync, whatever changed; else a price_calculation change starts a full pass, a rules
 * change a reprice run (behind a running one), and a key saved after a Disconnect a changes run
 * (what the catalog changed meanwhile, without waiting for the next poll). The settings stay
 * saved when the queue cannot be reached (logged). Returns the run.
 */
async function followSettings(input: {
  saved: EffectiveSettings
  pricingChanged: boolean
  rulesChanged: boolean
  keyVerified: boolean
  /** The sync had no key or address before this save (a Disconnect, say) and has both now. */
  reconnected: boolean
  /** The catalog still refuses the key or plan: the schedule follows, and only a reprice (no request) is queued. */
  stillBlocked: boolean
  service: ReturnType<typeof catalogSyncService>
  runtime: ReturnType<typeof catalogSyncRuntime>
  logger: Logger
}): Promise<ReturnType<typeof serializeRun> | undefined> {
  const { saved, pricingChanged, rulesChanged, keyVerified, reconnected, stillBlocked, service, runtime, logger } = input
  let run: ReturnType<typeof serializeRun> | undefined = undefined
  try {
    const queue = await runtime.queue()
    await queue.syncSchedule(saved)
    // Connected again (after a Disconnect): what the catalog changed meanwhile, behind any run queued here.
    const queueCatchUp = () => queue.enqueueRun({ mode: "changes", trigger: "settings", behindActive: true })
    if (rulesChanged && isConfigured(saved) && saved.enabled && (await hasSynced(service))) {
      // A reprice asks the catalog nothing, so it runs while the key or plan is refused too. A shop
      // that never synced has no costs to reprice: its first sync (below) prices by the saved rules.
      const { run: queued } = await queue.enqueueRun({ mode: "reprice", trigger: "rules_changed", behindActive: true })
      if (reconnected && !stillBlocked) await queueCatchUp()
      return serializeRun(queued)
    }
    // The runs below ask the catalog: none is queued while it still refuses the key or plan.
    if (stillBlocked) return undefined
    if (pricingChanged && isConfigured(saved) && saved.enabled) {
      const { run: queued } = await queue.enqueueRun({ mode: "full", trigger: "settings", behindActive: true })
      run = serializeRun(queued)
    }
    if (!run && keyVerified) {
      // A refused key replaced by one the catalog accepts: the blocked work starts now.
      const resumed = await resumeWorkBlockedByKey({ service: service as never, queue, settings: saved })
      if (resumed) run = serializeRun(resumed.run)
    }
    if (!run) {
      const first = await queueFirstSyncIfNeverSynced({ service, queue, settings: saved })
      if (first) run = serializeRun(first.run)
    }
    if (!run && reconnected && saved.enabled) run = serializeRun((await queueCatchUp()).run)
  } catch (e: any) {
    logger.warn(`catalog sync: settings saved, but the queue could not be updated: ${e?.message ?? e}`)
  }
  return run
}
