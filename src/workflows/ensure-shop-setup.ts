// First-run setup: make sure the storefront can see and price what the sync imports.
//
// - Sales channel: the configured one, else the store's default sales channel (where the shop
//   already sells), else (a store without one) a channel of our own, "Catalog sync".
// - Publishable keys: every live publishable key is made to see that channel, once per channel
//   (recorded in the store's metadata, so a key an admin later narrows is not widened again
//   on every run; the readiness checklist shows it and offers the fix).
// - Region: when no region sells uah, one is created ("Україна", country ua; plugin option
//   `region`), once. A country already in another region is left there and reported.
// - The store supports uah; the stock location is the configured one, else ours ("Catalog
//   sync warehouse", found by a metadata marker), else the store's default location, else a
//   new one of ours; the channel sees the location.
//
// Shops that synced before this setup put products in the plugin's own "Catalog sync" channel.
// Unless that channel is configured in the settings, the next run uses the store's default
// channel instead, and every product (rewritten once by the mapping-version bump) is linked to
// it; the old channel and its links are left for the admin to remove.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createHook, createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import {
  createApiKeysWorkflow,
  createRegionsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  updatePriceListsWorkflow,
  updateStoresWorkflow,
} from "@medusajs/medusa/core-flows"
import { SALE_PRICE_LIST_DESCRIPTION, SALE_PRICE_LIST_SOURCE, SALE_PRICE_LIST_TITLE } from "./extras/sale-prices"
import { CURRENCY_CODE } from "../sync/catalog-product"
import type { Placement } from "./page-input"
import { DEFAULT_REGION, type RegionSetup } from "../sync/settings"

export const OWN_STOCK_LOCATION_NAME = "Catalog sync warehouse"
/** The plugin's own channel: only for a store that has no default sales channel. */
export const OWN_SALES_CHANNEL_NAME = "Catalog sync"
/** Marks the records this plugin created, so later runs find them again. */
const MARKER = { created_by: "medusa-catalog-sync" }
/** Store metadata key recording what first-run setup already did. */
const SETUP_KEY = "catalog_sync_setup"

export interface SetupSettings {
  stockLocationId: string | null
  salesChannelId: string | null
  region?: RegionSetup
}

type StoreRow = {
  id: string
  name?: string
  default_sales_channel_id?: string | null
  default_location_id?: string | null
  metadata?: Record<string, unknown> | null
  supported_currencies?: { currency_code: string; is_default?: boolean }[]
}

export async function loadStore(container: MedusaContainer): Promise<StoreRow | null> {
  const [store] = await container.resolve(Modules.STORE).listStores({}, { relations: ["supported_currencies"], take: 1 })
  return (store as StoreRow | undefined) ?? null
}

export type SetupRecord = { keys_channel_id?: string; region_done?: boolean }

function setupRecord(store: StoreRow | null): SetupRecord {
  const value = store?.metadata?.[SETUP_KEY]
  return value && typeof value === "object" ? (value as SetupRecord) : {}
}

async function recordSetup(container: MedusaContainer, patch: SetupRecord): Promise<void> {
  const store = await loadStore(container)
  if (!store) return
  await container.resolve(Modules.STORE).updateStores(store.id, {
    metadata: { ...(store.metadata ?? {}), [SETUP_KEY]: { ...setupRecord(store), ...patch } },
  })
}

// ---------------------------------------------------------------------------------------------
// Currency

export async function storeSupportsUah(container: MedusaContainer): Promise<boolean> {
  const store = await loadStore(container)
  return !!store?.supported_currencies?.some((c) => c.currency_code === CURRENCY_CODE)
}

export async function ensureCurrency(container: MedusaContainer): Promise<void> {
  const store = await loadStore(container)
  if (!store) return
  const current = store.supported_currencies ?? []
  if (current.some((c) => c.currency_code === CURRENCY_CODE)) return
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        supported_currencies: [
          ...current.map((c) => ({ currency_code: c.currency_code, is_default: c.is_default })),
          { currency_code: CURRENCY_CODE, is_default: current.length === 0 },
        ],
      },
    },
  })
}

// ---------------------------------------------------------------------------------------------
// Sales channel

export type ChannelSource = "configured" | "store_default" | "own"

export interface ResolvedRecord {
  id: string
  name: string
  source: ChannelSource | "store_default_location"
}

/** The channel the sync sells in, without creating anything (null: none yet). */
export async function resolveSalesChannel(container: MedusaContainer, configured: string | null): Promise<ResolvedRecord | null> {
  const channels = container.resolve(Modules.SALES_CHANNEL)
  if (configured) {
    const [found] = await channels.listSalesChannels({ id: configured }, { take: 1 })
    if (found) return { id: found.id, name: found.name, source: "configured" }
  }
  const store = await loadStore(container)
  if (store?.default_sales_channel_id) {
    const [found] = await channels.listSalesChannels({ id: store.default_sales_channel_id }, { take: 1 })
    if (found) return { id: found.id, name: found.name, source: "store_default" }
  }
  const [own] = await channels.listSalesChannels({ name: OWN_SALES_CHANNEL_NAME }, { take: 1, order: { created_at: "ASC" } })
  return own ? { id: own.id, name: own.name, source: "own" } : null
}

export async function ensureSalesChannel(container: MedusaContainer, configured: string | null): Promise<string> {
  const resolved = await resolveSalesChannel(container, configured)
  if (resolved) return resolved.id
  const created = await container.resolve(Modules.SALES_CHANNEL).createSalesChannels({
    name: OWN_SALES_CHANNEL_NAME,
    description: "Products imported from the reseller catalog",
  })
  return created.id
}

// ---------------------------------------------------------------------------------------------
// Publishable keys

export interface KeyView {
  id: string
  title: string
  sees: boolean
}

/** Live publishable keys and whether each sees the channel. */
export async function publishableKeys(container: MedusaContainer, salesChannelId: string): Promise<KeyView[]> {
  const keys = await container.resolve(Modules.API_KEY).listApiKeys({ type: "publishable", revoked_at: null } as never, { take: null })
  if (!keys.length) return []
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "publishable_api_key_sales_channel",
    fields: ["publishable_key_id", "sales_channel_id"],
    filters: { publishable_key_id: keys.map((k) => k.id), sales_channel_id: salesChannelId },
  })
  const seeing = new Set(data.map((l: { publishable_key_id: string }) => l.publishable_key_id))
  return keys.map((k) => ({ id: k.id, title: k.title, sees: seeing.has(k.id) }))
}

/** Adds the channel to every live publishable key that does not see it; creates a key when there is none. Returns how many keys changed. */
export async function linkChannelToPublishableKeys(container: MedusaContainer, salesChannelId: string): Promise<number> {
  const keys = await publishableKeys(container, salesChannelId)
  if (!keys.length) {
    const { result } = await createApiKeysWorkflow(container).run({
      input: { api_keys: [{ title: "Storefront", type: "publishable", created_by: "" }] },
    })
    keys.push({ id: result[0].id, title: result[0].title, sees: false })
  }
  let changed = 0
  for (const key of keys.filter((k) => !k.sees)) {
    await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: key.id, add: [salesChannelId] } })
    changed++
  }
  return changed
}

// ---------------------------------------------------------------------------------------------
// Region

export interface RegionView {
  /** A region selling uah (the first by creation), or null. */
  uahRegion: { id: string; name: string; countries: string[] } | null
  /** Countries of the setup that are already in another region, with that region's name. */
  countriesElsewhere: { country: string; regionId: string; regionName: string }[]
}

export async function inspectRegions(container: MedusaContainer, setup: RegionSetup = DEFAULT_REGION): Promise<RegionView> {
  const regions = await container.resolve(Modules.REGION).listRegions({}, { relations: ["countries"], take: null, order: { created_at: "ASC" } })
  const uah = regions.find((r) => r.currency_code === CURRENCY_CODE) ?? null
  const countriesElsewhere: RegionView["countriesElsewhere"] = []
  for (const country of setup.countries) {
    const holder = regions.find((r) => r.countries?.some((c) => c.iso_2 === country))
    if (holder && holder.id !== uah?.id) countriesElsewhere.push({ country, regionId: holder.id, regionName: holder.name })
  }
  return {
    uahRegion: uah ? { id: uah.id, name: uah.name, countries: (uah.countries ?? []).map((c) => c.iso_2) } : null,
    countriesElsewhere,
  }
}

async function systemPaymentProviders(container: MedusaContainer): Promise<string[]> {
  try {
    const providers = await container.resolve(Modules.PAYMENT).listPaymentProviders({ id: "pp_system_default" } as never, { take: 1 })
    return providers.map((p) => p.id)
  } catch {
    return []
  }
}

/**
 * Creates the uah region when none sells uah (with the setup's countries that no other region
 * holds), and makes sure the store supports uah. Returns the region.
 */
export async function ensureUahRegion(container: MedusaContainer, setup: RegionSetup = DEFAULT_REGION): Promise<{ id: string; created: boolean }> {
  await ensureCurrency(container)
  const view = await inspectRegions(container, setup)
  if (view.uahRegion) return { id: view.uahRegion.id, created: false }
  const taken = new Set(view.countriesElsewhere.map((c) => c.country))
  const paymentProviders = await systemPaymentProviders(container)
  const { result } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        {
          name: setup.name,
          currency_code: CURRENCY_CODE,
          countries: setup.countries.filter((c) => !taken.has(c)),
          ...(paymentProviders.length ? { payment_providers: paymentProviders } : {}),
          metadata: MARKER,
        },
      ],
    },
  })
  return { id: result[0].id, created: true }
}

// ---------------------------------------------------------------------------------------------
// Stock location

export async function resolveStockLocation(container: MedusaContainer, configured: string | null): Promise<ResolvedRecord | null> {
  const locations = container.resolve(Modules.STOCK_LOCATION)
  if (configured) {
    const [found] = await locations.listStockLocations({ id: configured }, { take: 1 })
    if (found) return { id: found.id, name: found.name, source: "configured" }
  }
  const own = (await locations.listStockLocations({ name: OWN_STOCK_LOCATION_NAME }, { take: 20 })).find(
    (l) => (l.metadata as Record<string, unknown> | null)?.created_by === MARKER.created_by
  )
  if (own) return { id: own.id, name: own.name, source: "own" }
  const store = await loadStore(container)
  if (store?.default_location_id) {
    const [found] = await locations.listStockLocations({ id: store.default_location_id }, { take: 1 })
    if (found) return { id: found.id, name: found.name, source: "store_default_location" }
  }
  return null
}

export async function ensureStockLocation(container: MedusaContainer, configured: string | null): Promise<string> {
  const resolved = await resolveStockLocation(container, configured)
  if (resolved) return resolved.id
  const created = await container.resolve(Modules.STOCK_LOCATION).createStockLocations({ name: OWN_STOCK_LOCATION_NAME, metadata: MARKER })
  return created.id
}

export async function channelSeesLocation(container: MedusaContainer, salesChannelId: string, stockLocationId: string): Promise<boolean> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "sales_channel_location",
    fields: ["sales_channel_id", "stock_location_id"],
    filters: { sales_channel_id: salesChannelId, stock_location_id: stockLocationId },
  })
  return data.length > 0
}

/** The sales channel must see the stock location, or the storefront shows no availability. */
export async function ensureChannelSeesLocation(container: MedusaContainer, salesChannelId: string, stockLocationId: string) {
  if (await channelSeesLocation(container, salesChannelId, stockLocationId)) return
  await container.resolve(ContainerRegistrationKeys.LINK).create({
    [Modules.SALES_CHANNEL]: { sales_channel_id: salesChannelId },
    [Modules.STOCK_LOCATION]: { stock_location_id: stockLocationId },
  })
}

async function defaultShippingProfile(container: MedusaContainer): Promise<string | null> {
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const profiles = await fulfillment.listShippingProfiles({}, { take: 50 })
  const profile = profiles.find((p) => p.type === "default") ?? profiles[0]
  if (profile) return profile.id
  const created = await fulfillment.createShippingProfiles({ name: "Default Shipping Profile", type: "default" })
  return created.id
}

/** The sale price list was once titled "Catalog crossed-out prices", the opposite of what it holds. */
async function retitleSalePriceList(container: MedusaContainer): Promise<void> {
  const lists = await container.resolve(Modules.PRICING).listPriceLists({}, { select: ["id", "title", "metadata"], take: null })
  const ours = lists.filter(
    (l) => l.title === "Catalog crossed-out prices" && (l.metadata as Record<string, unknown> | null)?.source === SALE_PRICE_LIST_SOURCE
  )
  if (!ours.length) return
  await updatePriceListsWorkflow(container).run({
    input: { price_lists_data: ours.map((l) => ({ id: l.id, title: SALE_PRICE_LIST_TITLE, description: SALE_PRICE_LIST_DESCRIPTION })) as never },
  })
}

// ---------------------------------------------------------------------------------------------

export const ensureCurrencyStepId = "catalog-sync-ensure-currency"
/** The store supports uah. */
export const ensureCurrencyStep = createStep(ensureCurrencyStepId, async (_: void, { container }) => {
  await ensureCurrency(container)
  return new StepResponse(undefined)
})

export const ensureStockLocationStepId = "catalog-sync-ensure-stock-location"
/** The configured stock location, else ours, else the store's default, else a new one of ours. */
export const ensureStockLocationStep = createStep(ensureStockLocationStepId, async (configured: string | null, { container }) => {
  return new StepResponse(await ensureStockLocation(container, configured))
})

export const ensureSalesChannelStepId = "catalog-sync-ensure-sales-channel"
/** The configured sales channel, else the store's default, else ours (created when missing). */
export const ensureSalesChannelStep = createStep(ensureSalesChannelStepId, async (configured: string | null, { container }) => {
  return new StepResponse(await ensureSalesChannel(container, configured))
})

export const ensureChannelSeesLocationStepId = "catalog-sync-ensure-channel-sees-location"
export const ensureChannelSeesLocationStep = createStep(
  ensureChannelSeesLocationStepId,
  async (input: { salesChannelId: string; stockLocationId: string }, { container }) => {
    await ensureChannelSeesLocation(container, input.salesChannelId, input.stockLocationId)
    return new StepResponse(undefined)
  }
)

export const ensureShippingProfileStepId = "catalog-sync-ensure-shipping-profile"
/** The store's default shipping profile (created when the store has none). */
export const ensureShippingProfileStep = createStep(ensureShippingProfileStepId, async (_: void, { container }) => {
  return new StepResponse(await defaultShippingProfile(container))
})

export const storefrontSetupStepId = "catalog-sync-storefront-setup"
/** The storefront's part: a failure here is shown by the readiness checklist, never stops the sync. */
export const storefrontSetupStep = createStep(storefrontSetupStepId, async (input: { salesChannelId: string; region: RegionSetup }, { container }) => {
  try {
    await storefrontSetupOnce(setupRecord(await loadStore(container)), input.salesChannelId, input.region, {
      linkKeys: (channelId) => linkChannelToPublishableKeys(container, channelId),
      ensureRegion: (region) => ensureUahRegion(container, region),
      record: (patch) => recordSetup(container, patch),
    })
    await retitleSalePriceList(container)
  } catch (error) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`catalog sync: storefront setup (publishable keys, uah region) failed: ${(error as Error)?.message ?? error}`)
  }
  return new StepResponse(undefined)
})

export const ensureShopSetupWorkflowId = "catalog-sync-ensure-shop-setup"

/**
 * Run at the start of every sync. What an admin may deliberately undo (a key's channels, the
 * region) is done once (per channel for the keys); the rest every time, since the sync cannot
 * write without it. Returns where the sync puts products; the `shopSetupEnsured` hook receives it.
 */
export const ensureShopSetupWorkflow = createWorkflow(ensureShopSetupWorkflowId, (input: SetupSettings) => {
  ensureCurrencyStep()
  const stockLocationId = ensureStockLocationStep(input.stockLocationId)
  const salesChannelId = ensureSalesChannelStep(input.salesChannelId)
  ensureChannelSeesLocationStep({ salesChannelId, stockLocationId })
  const shippingProfileId = ensureShippingProfileStep()
  storefrontSetupStep(transform({ input, salesChannelId }, ({ input, salesChannelId }) => ({ salesChannelId, region: input.region ?? DEFAULT_REGION })))

  const placement = transform({ stockLocationId, salesChannelId, shippingProfileId }, ({ stockLocationId, salesChannelId, shippingProfileId }): Placement => ({
    stockLocationId,
    salesChannelId,
    shippingProfileId,
  }))
  const shopSetupEnsured = createHook("shopSetupEnsured", { placement })
  return new WorkflowResponse(placement, { hooks: [shopSetupEnsured] })
})

/** Runs ensureShopSetupWorkflow with the run's settings. */
export async function ensureShopSetup(container: MedusaContainer, settings: SetupSettings): Promise<Placement> {
  const { result } = await ensureShopSetupWorkflow(container).run({
    input: { stockLocationId: settings.stockLocationId, salesChannelId: settings.salesChannelId, region: settings.region },
  })
  return result
}

/**
 * The once-only storefront steps: the channel added to the publishable keys (once per
 * channel), the uah region (once). Each step is recorded as soon as it is done, so a later
 * step that fails (a region the shop refuses, say) does not make the next run widen keys the
 * admin has narrowed since.
 */
export async function storefrontSetupOnce(
  record: SetupRecord,
  salesChannelId: string,
  region: RegionSetup,
  steps: {
    linkKeys(channelId: string): Promise<unknown>
    ensureRegion(region: RegionSetup): Promise<unknown>
    record(patch: SetupRecord): Promise<void>
  }
): Promise<void> {
  if (record.keys_channel_id !== salesChannelId) {
    await steps.linkKeys(salesChannelId)
    await steps.record({ keys_channel_id: salesChannelId })
  }
  if (!record.region_done) {
    if (region.create) await steps.ensureRegion(region)
    await steps.record({ region_done: true })
  }
}
