// Effective settings = the admin's saved row over the plugin options over defaults, and the
// public (masked) view of them the admin API returns.
import Decimal from "decimal.js"
import { catalogFilterSchema, KEEP_EVERYTHING, type CatalogFilter } from "../../catalog-filter/filter"
import { DEFAULT_BRAKE_THRESHOLDS, type BrakeThresholds } from "../../pricing/brake"
import { parsePricingRules, rulesFromApiPricing, type PricingRules } from "../../pricing/rules"
import { resolveVocabulary, type ShopVocabulary } from "../shop-vocabulary"
import { shopLockDefaultsSchema, type ShopLockDefaults } from "../../field-locks/locks"
import { normaliseBaseUrl } from "./base-url"
import type { Language } from "./language"
import {
  DEFAULT_POLL_INTERVAL_MINUTES,
  MAX_POLL_INTERVAL_MINUTES,
  MIN_POLL_INTERVAL_MINUTES,
  regionFromOptions,
  type CatalogSyncPluginOptions,
  type PriceCalculation,
  type RegionSetup,
  type RemovalMode,
} from "./plugin-options"

/**
 * Pricing parameters of a catalog request. The shop asks only for costs (`price_calculation`);
 * the other three are set only in a cursor's remembered set (`cursor_pricing`) from before the
 * shop's rules took markup and crossed-out prices over (see `requestPricingFor`).
 */
export type PricingParams = {
  price_calculation: PriceCalculation
  markup_percent: string | null
  discount_percent: string | null
  old_price_markup_percent: string | null
}

/** The API's markup and crossed-out parameters a shop stored (settings or plugin option) before its rules replaced them. */
export type StoredApiPricing = Omit<PricingParams, "price_calculation">

export type EffectiveSettings = {
  baseUrl: string | null
  /** Decrypted. Never logged, never returned by a route. */
  apiKey: string | null
  apiKeyHash: string | null
  apiKeyLast4: string | null
  /** What catalog requests ask for: the cost calculation only (the markup parameters always null). */
  pricing: PricingParams
  /**
   * The rules every selling and crossed-out price is computed with: the admin's own rules once
   * saved, else the API markup parameters a shop stored before (row, else plugin option) folded
   * into rules (rulesFromApiPricing: exactly the prices the API's parameters produced).
   */
  pricingRules: PricingRules
  /** Whether the admin saved rules of their own (else pricingRules are the stored API parameters folded). */
  pricingRulesSaved: boolean
  /** Bumped on every change of the saved rules; a reprice run and each cost row name the revision that priced them. */
  pricingRulesRevision: number
  /** The stored API markup parameters (folded into pricingRules while no rules are saved; cleared once rules are saved). */
  storedApiPricing: StoredApiPricing
  brake: BrakeThresholds
  /** Fields locked on every product unless a product unlocks them, and whether an admin edit locks a field. */
  fieldLocks: ShopLockDefaults
  /** What part of the catalog the shop imports (keeps everything until the admin saves one). */
  filter: CatalogFilter
  pollIntervalMinutes: number
  stockLocationId: string | null
  salesChannelId: string | null
  removalMode: RemovalMode
  primaryLanguage: Language
  /** Size option title and one-size value per language (plugin option `labels` over the defaults). */
  vocabulary: ShopVocabulary
  /** The region first-run setup creates when none sells uah (plugin option `region`). */
  region: RegionSetup
  enabled: boolean
  /** Copy product images into the shop's File module (src/image-mirror); off by default. */
  mirrorImages: boolean
  /** Where alerts are emailed too (src/queue/catalog-sync-alerts.ts), or null: the admin's feed only. */
  alertEmail: string | null
  revision: number
}

/** The settings row as stored by the catalog_sync module (only the fields used here). */
export type SettingsRow = {
  base_url: string | null
  api_key_encrypted: string | null
  api_key_last4: string | null
  api_key_hash: string | null
  price_calculation: PriceCalculation
  markup_percent: string | null
  discount_percent: string | null
  old_price_markup_percent: string | null
  poll_interval_minutes: number
  stock_location_id: string | null
  sales_channel_id: string | null
  removal_mode: RemovalMode
  primary_language: Language
  enabled: boolean
  revision: number
  pricing_rules?: unknown
  pricing_rules_revision?: number | null
  brake?: Partial<BrakeThresholds> | null
  mirror_images?: boolean | null
  field_locks?: unknown
  filter?: unknown
  alert_email?: string | null
}

/** The form echoes the saved key back masked ("••••1234"): that means "keep the saved key". */
export const MASKED_KEY_PREFIX = "••••"

/** Shown instead of the key: "••••1234". */
export function maskApiKey(last4: string | null | undefined): string | null {
  return last4 ? `${MASKED_KEY_PREFIX}${last4}` : null
}

function normalisePercent(value: string | number | null | undefined): string | null {
  if (value === undefined || value === null || value === "") return null
  try {
    return new Decimal(String(value).trim()).toFixed()
  } catch {
    return null
  }
}

function pricingFromOptions(options: CatalogSyncPluginOptions): PricingParams {
  const p = options.pricing ?? {}
  return {
    price_calculation: p.price_calculation ?? "max",
    markup_percent: normalisePercent(p.markup_percent),
    discount_percent: normalisePercent(p.discount_percent),
    old_price_markup_percent: normalisePercent(p.old_price_markup_percent),
  }
}

/** Costs only: what every catalog request asks for. */
export function costPricing(priceCalculation: PriceCalculation): PricingParams {
  return { price_calculation: priceCalculation, markup_percent: null, discount_percent: null, old_price_markup_percent: null }
}

function clampInterval(minutes: number | undefined): number {
  if (minutes === undefined || !Number.isFinite(minutes)) return DEFAULT_POLL_INTERVAL_MINUTES
  return Math.min(MAX_POLL_INTERVAL_MINUTES, Math.max(MIN_POLL_INTERVAL_MINUTES, Math.round(minutes)))
}

/**
 * Combines the saved row (may be absent) with the plugin options. `decryptedKey` is the
 * row's key already decrypted (the crypto lives at the edge); `hashKey` names an options
 * key. Pricing comes from the row once it exists, since the admin saved it as a set.
 */
export function resolveEffectiveSettings(input: {
  row: SettingsRow | null
  options: CatalogSyncPluginOptions
  decryptedKey: string | null
  hashKey: (apiKey: string) => string
}): EffectiveSettings {
  const { row, options, decryptedKey, hashKey } = input
  const fromRow = !!row?.api_key_encrypted && decryptedKey !== null
  const apiKey = fromRow ? decryptedKey : options.apiKey?.trim() || null
  const optionPricing = pricingFromOptions(options)
  // The stored markup parameters come from the row once it exists (the admin saved them as a set).
  const stored: StoredApiPricing = row
    ? { markup_percent: row.markup_percent, discount_percent: row.discount_percent, old_price_markup_percent: row.old_price_markup_percent }
    : {
        markup_percent: optionPricing.markup_percent,
        discount_percent: optionPricing.discount_percent,
        old_price_markup_percent: optionPricing.old_price_markup_percent,
      }
  const pricing = costPricing(row?.price_calculation ?? optionPricing.price_calculation)
  return {
    baseUrl: row?.base_url || normaliseBaseUrl(options.baseUrl),
    apiKey,
    apiKeyHash: fromRow ? row!.api_key_hash : apiKey ? hashKey(apiKey) : null,
    apiKeyLast4: fromRow ? row!.api_key_last4 : apiKey ? apiKey.slice(-4) : null,
    pricing,
    storedApiPricing: stored,
    ...rulesOf(row, stored),
    brake: { ...DEFAULT_BRAKE_THRESHOLDS, ...(row?.brake ?? {}) },
    fieldLocks: fieldLocksOf(row),
    filter: storedFilter(row?.filter),
    pollIntervalMinutes: row ? clampInterval(row.poll_interval_minutes) : clampInterval(options.pollIntervalMinutes),
    stockLocationId: row?.stock_location_id ?? options.stockLocationId ?? null,
    salesChannelId: row?.sales_channel_id ?? options.salesChannelId ?? null,
    removalMode: row?.removal_mode ?? options.removalMode ?? "delete",
    primaryLanguage: row?.primary_language ?? options.primaryLanguage ?? "uk",
    vocabulary: resolveVocabulary(options.labels),
    region: regionFromOptions(options),
    enabled: row ? row.enabled : true,
    mirrorImages: row?.mirror_images ?? false,
    alertEmail: row?.alert_email ?? null,
    revision: row?.revision ?? 0,
  }
}

/** The saved shop-wide locks, re-validated (none when absent or unreadable). */
export function fieldLocksOf(row: Pick<SettingsRow, "field_locks"> | null): ShopLockDefaults {
  const parsed = shopLockDefaultsSchema.safeParse(row?.field_locks ?? {})
  return parsed.success ? parsed.data : shopLockDefaultsSchema.parse({})
}

/** The saved filter, re-validated (a row from an older version that no longer parses keeps everything). */
function storedFilter(stored: unknown): CatalogFilter {
  const parsed = catalogFilterSchema.safeParse(stored ?? {})
  return parsed.success ? parsed.data : KEEP_EVERYTHING
}

/**
 * The saved rules (re-validated: a row from an older version never reaches the pricing unchecked),
 * else the stored API parameters folded into rules: a shop upgraded from API pricing keeps every price.
 */
function rulesOf(row: SettingsRow | null, pricing: StoredApiPricing): Pick<EffectiveSettings, "pricingRules" | "pricingRulesSaved" | "pricingRulesRevision"> {
  const revision = row?.pricing_rules_revision ?? 0
  if (row?.pricing_rules) {
    const parsed = parsePricingRules(row.pricing_rules)
    if (parsed.ok) return { pricingRules: parsed.rules, pricingRulesSaved: true, pricingRulesRevision: revision }
  }
  return { pricingRules: rulesFromApiPricing(pricing), pricingRulesSaved: false, pricingRulesRevision: revision }
}

/** The defaults a first saved row starts from: what the options say. */
export function initialRowValues(options: CatalogSyncPluginOptions): Omit<SettingsRow, "api_key_encrypted" | "api_key_last4" | "api_key_hash" | "revision"> {
  const pricing = pricingFromOptions(options)
  return {
    base_url: normaliseBaseUrl(options.baseUrl),
    ...pricing,
    poll_interval_minutes: clampInterval(options.pollIntervalMinutes),
    stock_location_id: options.stockLocationId ?? null,
    sales_channel_id: options.salesChannelId ?? null,
    removal_mode: options.removalMode ?? "delete",
    primary_language: options.primaryLanguage ?? "uk",
    enabled: true,
  }
}

export function samePricing(a: PricingParams, b: PricingParams): boolean {
  return (
    a.price_calculation === b.price_calculation &&
    a.markup_percent === b.markup_percent &&
    a.discount_percent === b.discount_percent &&
    a.old_price_markup_percent === b.old_price_markup_percent
  )
}

export function isConfigured(settings: Pick<EffectiveSettings, "baseUrl" | "apiKey">): boolean {
  return !!settings.baseUrl && !!settings.apiKey
}

/** What GET /admin/catalog-sync/settings returns: effective values, the key masked. */
export function toPublicSettings(settings: EffectiveSettings) {
  return {
    base_url: settings.baseUrl,
    api_key: maskApiKey(settings.apiKeyLast4),
    api_key_set: !!settings.apiKey,
    price_calculation: settings.pricing.price_calculation,
    poll_interval_minutes: settings.pollIntervalMinutes,
    stock_location_id: settings.stockLocationId,
    sales_channel_id: settings.salesChannelId,
    removal_mode: settings.removalMode,
    primary_language: settings.primaryLanguage,
    enabled: settings.enabled,
    mirror_images: settings.mirrorImages,
    alert_email: settings.alertEmail,
    revision: settings.revision,
    // The rules prices are computed with: the one place for markup and crossed-out prices.
    pricing_rules: settings.pricingRules,
    pricing_rules_saved: settings.pricingRulesSaved,
    pricing_rules_revision: settings.pricingRulesRevision,
    filter: settings.filter,
    brake: {
      remove_percent: settings.brake.removal_percent,
      price_drop_share_percent: settings.brake.lowered_prices_percent,
      price_drop_percent: settings.brake.price_drop_percent,
    },
    field_locks: settings.fieldLocks,
  }
}

export type PublicSettings = ReturnType<typeof toPublicSettings>
