// The storefront readiness checklist: live state of what a storefront needs to show and price
// the synced products, and the fix for each item (GET /admin/catalog-sync/readiness,
// POST /admin/catalog-sync/readiness/fix).
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { z } from "@medusajs/framework/zod"
import { CATALOG_SYNC_MODULE, type CatalogSyncModuleService } from "../../../../modules/catalog_sync"
import type { EffectiveSettings } from "../../../../sync/settings"
import { formatCount } from "../../../../sync/number-format"
import {
  channelSeesLocation,
  ensureChannelSeesLocation,
  ensureSalesChannel,
  ensureStockLocation,
  ensureUahRegion,
  inspectRegions,
  linkChannelToPublishableKeys,
  publishableKeys,
  resolveSalesChannel,
  resolveStockLocation,
  storeSupportsUah,
} from "../../../../workflows/ensure-shop-setup"
import { describeDifferences, guardSchema } from "../../../../bulk-write/schema-guard"
import { checkSyncOverdue } from "../../../../queue/sync-overdue-check"
import { catalogSyncRuntime } from "../helpers"

export const CHECK_IDS = ["sales_channel", "publishable_key", "region", "stock_location", "drafts", "write_path", "sync_running"] as const
export type CheckId = (typeof CHECK_IDS)[number]
/** The checks a button can fix (the write path's schema difference needs a plugin or Medusa update). */
export const FIXABLE_CHECK_IDS = ["sales_channel", "publishable_key", "region", "stock_location", "drafts"] as const

export const fixBodySchema = z
  .object({ check: z.enum(FIXABLE_CHECK_IDS, { error: `must be one of ${FIXABLE_CHECK_IDS.join(", ")}` }) }, { error: "must be a JSON object {check}" })
  .strict()

export interface ReadinessCheck {
  id: CheckId
  /** ok: ready; error: the storefront cannot show or price the products; warning: worth a look. */
  status: "ok" | "warning" | "error"
  title: string
  detail: string
  /** The button that fixes it (absent when ok or when nothing can be done from here). */
  fix: { label: string } | null
}

export interface Readiness {
  ready: boolean
  sales_channel: { id: string; name: string; source: string } | null
  stock_location: { id: string; name: string; source: string } | null
  region: { id: string; name: string; countries: string[] } | null
  checks: ReadinessCheck[]
}

type Settings = Pick<EffectiveSettings, "salesChannelId" | "stockLocationId" | "region" | "baseUrl" | "apiKey" | "enabled">

const SOURCE_TEXT: Record<string, string> = {
  configured: "chosen in these settings",
  store_default: "the store's default sales channel",
  own: "created by the catalog sync",
  store_default_location: "the store's default location",
}

async function draftsCheck(container: MedusaContainer, settings: Settings): Promise<ReadinessCheck> {
  const title = "Products without a price"
  let service: CatalogSyncModuleService
  try {
    service = container.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
  } catch {
    return { id: "drafts", status: "ok", title, detail: "No synced products yet.", fix: null }
  }
  const [, active] = await service.listAndCountCatalogProductMaps({ status: "active" }, { take: 1 })
  const [, removed] = await service.listAndCountCatalogProductMaps({ status: "draft" }, { take: 1 })
  // Products of the map that are drafts while still on sale: the catalog gives them no price.
  let unpriced = 0
  const productModule = container.resolve(Modules.PRODUCT)
  for (let skip = 0; skip < active; skip += 1000) {
    const [rows] = await service.listAndCountCatalogProductMaps({ status: "active" }, { select: ["product_id"], take: 1000, skip, order: { id: "ASC" } })
    const ids = rows.map((r) => r.product_id).filter((id): id is string => !!id)
    if (!ids.length) continue
    const [, count] = await productModule.listAndCountProducts({ id: ids, status: "draft" }, { select: ["id"], take: 1 })
    unpriced += count
  }
  // A removal held for an open order is a "draft" in the map too, whatever the removal setting.
  let forOrders = 0
  if (removed) {
    const pending = await service.listCatalogPendingRemovals({ kind: "product" }, { select: ["product_id"], take: null })
    if (pending.length) {
      const [, count] = await service.listAndCountCatalogProductMaps({ status: "draft", product_id: pending.map((p) => p.product_id) }, { take: 1 })
      forOrders = count
    }
  }
  const byRemovalSetting = removed - forOrders
  const are = (n: number) => `${formatCount(n)} ${n === 1 ? "is a draft" : "are drafts"}`
  const parts: string[] = []
  if (unpriced)
    parts.push(
      `${formatCount(unpriced)} ${unpriced === 1 ? "stays a draft" : "stay drafts"} because the catalog gives no price for any of their sizes; they are published when the catalog prices them`
    )
  const them = (n: number) => (n === 1 ? "it" : "them")
  if (byRemovalSetting > 0)
    parts.push(`${are(byRemovalSetting)} because the catalog removed ${them(byRemovalSetting)} and the removal setting keeps removed products as drafts`)
  if (forOrders)
    parts.push(
      `${are(forOrders)} because the catalog removed ${them(forOrders)} while an open order holds ${them(forOrders)}, until the order is fulfilled or cancelled`
    )
  if (!parts.length)
    return { id: "drafts", status: "ok", title, detail: active ? `All ${active} synced products are priced.` : "No synced products yet.", fix: null }
  const canSync = fixRefusal(settings, "drafts") === null
  return {
    id: "drafts",
    status: "warning",
    title,
    detail: `${parts.join("; ")}.`,
    fix: unpriced && canSync ? { label: "Sync all products again" } : null,
  }
}

/** Listed only when the database differs from what the bulk writer was written for (schema-guard.ts). */
async function writePathCheck(container: MedusaContainer): Promise<ReadinessCheck | null> {
  const guard = await guardSchema(container)
  if (!guard.differences.length) return null
  return {
    id: "write_path",
    status: "warning",
    title: "Fast write path",
    detail: `The database differs from the schema the fast write path was written for (missing: ${describeDifferences(guard.differences)}), so every sync write goes through Medusa's own workflows: correct, but several times slower. Install the plugin version made for this Medusa version.`,
    fix: null,
  }
}

/** Listed only when no run started for over two poll intervals although the shop is configured. */
async function syncRunningCheck(container: MedusaContainer, settings: Settings): Promise<ReadinessCheck | null> {
  const service = container.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
  const runtime = catalogSyncRuntime(container)
  const effective = await service.getEffectiveSettings()
  const overdue = await checkSyncOverdue({ service, settings: effective, pollEveryMs: runtime.pollEveryMs(effective) })
  if (!overdue.overdue) return null
  return {
    id: "sync_running",
    status: "error",
    title: "Sync schedule",
    detail: `No sync started since ${overdue.since.toISOString()}, over two poll intervals: the storefront is no longer kept up to date. Check that a worker instance runs and reaches Redis.`,
    fix: null,
  }
}

export async function inspectReadiness(container: MedusaContainer, settings: Settings): Promise<Readiness> {
  const checks: ReadinessCheck[] = []
  const channel = await resolveSalesChannel(container, settings.salesChannelId)
  if (settings.salesChannelId && channel?.source !== "configured") {
    checks.push({
      id: "sales_channel",
      status: "error",
      title: "Sales channel",
      detail: `The sales channel chosen in the settings (${settings.salesChannelId}) does not exist${channel ? `; products go to "${channel.name}" instead` : ""}.`,
      fix: { label: channel ? `Use "${channel.name}"` : "Create a sales channel" },
    })
  } else if (!channel) {
    checks.push({
      id: "sales_channel",
      status: "error",
      title: "Sales channel",
      detail: "The store has no default sales channel.",
      fix: { label: "Create a sales channel" },
    })
  } else {
    checks.push({
      id: "sales_channel",
      status: "ok",
      title: "Sales channel",
      detail: `Products are sold in "${channel.name}" (${SOURCE_TEXT[channel.source]}).`,
      fix: null,
    })
  }

  if (channel) {
    const keys = await publishableKeys(container, channel.id)
    const seeing = keys.filter((k) => k.sees)
    const blind = keys.filter((k) => !k.sees)
    if (!keys.length) {
      checks.push({
        id: "publishable_key",
        status: "error",
        title: "Publishable key",
        detail: "The store has no publishable API key, so no storefront can read products.",
        fix: { label: "Create a publishable key" },
      })
    } else if (blind.length) {
      checks.push({
        id: "publishable_key",
        status: seeing.length ? "warning" : "error",
        title: "Publishable key",
        detail: `${blind.map((k) => `"${k.title}"`).join(", ")} ${blind.length === 1 ? "does" : "do"} not include "${channel.name}": a storefront using ${blind.length === 1 ? "it" : "them"} shows none of the synced products.`,
        fix: { label: `Add "${channel.name}" to ${blind.length === 1 ? "the key" : `all ${blind.length} keys`}` },
      })
    } else {
      checks.push({
        id: "publishable_key",
        status: "ok",
        title: "Publishable key",
        detail: `${keys.map((k) => `"${k.title}"`).join(", ")} ${keys.length === 1 ? "sees" : "see"} "${channel.name}".`,
        fix: null,
      })
    }
  } else {
    checks.push({ id: "publishable_key", status: "error", title: "Publishable key", detail: "Needs a sales channel first.", fix: null })
  }

  const regions = await inspectRegions(container, settings.region)
  const uahInStore = await storeSupportsUah(container)
  if (!regions.uahRegion) {
    const elsewhere = regions.countriesElsewhere.map((c) => `${c.country.toUpperCase()} is in region "${c.regionName}"`)
    checks.push({
      id: "region",
      status: "error",
      title: "Region in UAH",
      detail: `No region sells in UAH, so the store API cannot price the products (it asks for a region_id).${elsewhere.length ? ` ${elsewhere.join("; ")}: the new region is created without ${elsewhere.length === 1 ? "it" : "them"}.` : ""}`,
      fix: { label: `Create region "${settings.region.name}"` },
    })
  } else if (!uahInStore) {
    checks.push({
      id: "region",
      status: "error",
      title: "Region in UAH",
      detail: `Region "${regions.uahRegion.name}" sells in UAH, but the store does not list UAH among its currencies.`,
      fix: { label: "Add UAH to the store" },
    })
  } else {
    const countries = regions.uahRegion.countries.length ? ` (${regions.uahRegion.countries.map((c) => c.toUpperCase()).join(", ")})` : " (no countries)"
    checks.push({ id: "region", status: "ok", title: "Region in UAH", detail: `Region "${regions.uahRegion.name}"${countries} sells in UAH.`, fix: null })
  }

  const location = await resolveStockLocation(container, settings.stockLocationId)
  if (!location || (settings.stockLocationId && location.source !== "configured")) {
    checks.push({
      id: "stock_location",
      status: "error",
      title: "Stock location",
      detail: settings.stockLocationId
        ? `The stock location chosen in the settings (${settings.stockLocationId}) does not exist.`
        : "No stock location for the catalog's stock yet.",
      fix: { label: location ? `Use "${location.name}"` : "Create the stock location" },
    })
  } else if (channel && !(await channelSeesLocation(container, channel.id, location.id))) {
    checks.push({
      id: "stock_location",
      status: "error",
      title: "Stock location",
      detail: `"${channel.name}" is not linked to "${location.name}": the storefront would show the products out of stock.`,
      fix: { label: `Link "${location.name}" to "${channel.name}"` },
    })
  } else {
    checks.push({
      id: "stock_location",
      status: "ok",
      title: "Stock location",
      detail: `Stock is kept at "${location.name}" (${SOURCE_TEXT[location.source]}).`,
      fix: null,
    })
  }

  checks.push(await draftsCheck(container, settings))
  const writePath = await writePathCheck(container)
  if (writePath) checks.push(writePath)
  const running = await syncRunningCheck(container, settings)
  if (running) checks.push(running)

  return {
    ready: checks.every((c) => c.status !== "error"),
    sales_channel: channel,
    stock_location: location,
    region: regions.uahRegion,
    checks,
  }
}

/**
 * Why this fix cannot be carried out with these settings, or null. The drafts fix starts a full
 * sync, so it needs what POST /admin/catalog-sync/runs needs: an address, a key, the sync enabled.
 */
export function fixRefusal(settings: Settings, check: CheckId): { field: string; message: string } | null {
  if (check !== "drafts") return null
  if (!settings.baseUrl) return { field: "base_url", message: "set the catalog API address first" }
  if (!settings.apiKey) return { field: "api_key", message: "set the catalog API key first" }
  if (!settings.enabled) return { field: "enabled", message: "the sync is disabled in the settings" }
  return null
}

/** Carries out one check's fix. A sales channel or location the settings name but that is gone is cleared from the settings. */
export async function fixCheck(
  container: MedusaContainer,
  settings: Settings,
  check: CheckId,
  clearSetting: (field: "sales_channel_id" | "stock_location_id") => Promise<void>,
  fullSync: () => Promise<void>
): Promise<void> {
  switch (check) {
    case "sales_channel": {
      const channel = await resolveSalesChannel(container, settings.salesChannelId)
      if (settings.salesChannelId && channel?.source !== "configured") await clearSetting("sales_channel_id")
      const id = await ensureSalesChannel(container, null)
      await linkChannelToPublishableKeys(container, id)
      return
    }
    case "publishable_key": {
      const id = await ensureSalesChannel(container, settings.salesChannelId)
      await linkChannelToPublishableKeys(container, id)
      return
    }
    case "region":
      await ensureUahRegion(container, settings.region)
      return
    case "stock_location": {
      const location = await resolveStockLocation(container, settings.stockLocationId)
      const configuredExists = !!settings.stockLocationId && location?.source === "configured"
      if (settings.stockLocationId && !configuredExists) await clearSetting("stock_location_id")
      const locationId = await ensureStockLocation(container, configuredExists ? settings.stockLocationId : null)
      const channelId = await ensureSalesChannel(container, settings.salesChannelId)
      await ensureChannelSeesLocation(container, channelId, locationId)
      return
    }
    case "drafts":
      await fullSync()
      return
    case "write_path":
      return
  }
}
