// Pure settings logic: the plugin options, the admin's saved settings, how they combine into
// the effective settings a run uses, and the validation of an admin's change (zod, with the
// offending field named). No Medusa, no I/O.
import { createHash } from "node:crypto"
import Decimal from "decimal.js"
import { z } from "zod"
import { KNOWN_SECRET_DIGESTS } from "./known-secrets"
import { resolveVocabulary, type LabelOptions, type ShopVocabulary } from "./shop-vocabulary"

export type PriceCalculation = "min" | "avg" | "max"
export type RemovalMode = "delete" | "draft"
export type PrimaryLanguage = "uk" | "ru"

export type PricingParams = {
  price_calculation: PriceCalculation
  markup_percent: string | null
  discount_percent: string | null
  old_price_markup_percent: string | null
}

export type EffectiveSettings = {
  baseUrl: string | null
  /** Decrypted. Never logged, never returned by a route. */
  apiKey: string | null
  apiKeyHash: string | null
  apiKeyLast4: string | null
  pricing: PricingParams
  pollIntervalMinutes: number
  stockLocationId: string | null
  salesChannelId: string | null
  removalMode: RemovalMode
  primaryLanguage: PrimaryLanguage
  /** Size option title and one-size value per language (plugin option `labels` over the defaults). */
  vocabulary: ShopVocabulary
  /** The region first-run setup creates when none sells uah (plugin option `region`). */
  region: RegionSetup
  enabled: boolean
  revision: number
}

export type RegionSetup = {
  /** false: never create a region (the readiness checklist still reports a missing one). */
  create: boolean
  name: string
  /** ISO 3166-1 alpha-2, lower case. */
  countries: string[]
}

export const DEFAULT_REGION: RegionSetup = { create: true, name: "Україна", countries: ["ua"] }

export function regionFromOptions(options: Pick<CatalogSyncPluginOptions, "region">): RegionSetup {
  const r = options.region ?? {}
  const name = typeof r.name === "string" && r.name.trim() ? r.name.trim() : DEFAULT_REGION.name
  const countries = Array.isArray(r.countries)
    ? r.countries.filter((c): c is string => typeof c === "string" && /^[a-z]{2}$/i.test(c.trim())).map((c) => c.trim().toLowerCase())
    : DEFAULT_REGION.countries
  return { create: r.create !== false, name, countries }
}

/** Plugin options from medusa-config (`plugins: [{ resolve: "medusa-catalog-sync", options }]`). All optional. */
export type CatalogSyncPluginOptions = {
  /** Catalog API base URL without /v1, e.g. "https://catalog.example.com". */
  baseUrl?: string
  /** Catalog API key. Settings saved in the admin take precedence. */
  apiKey?: string
  /** Redis for the queue, scheduler, lock and shared rate limit. Defaults to projectConfig.redisUrl. */
  redisUrl?: string
  /** Encrypts the API key saved from the admin (AES-256-GCM). Falls back to CATALOG_SYNC_ENCRYPTION_KEY. */
  encryptionKey?: string
  /** Default pricing parameters sent to the API. */
  pricing?: Partial<{
    price_calculation: PriceCalculation
    markup_percent: string | number | null
    discount_percent: string | number | null
    old_price_markup_percent: string | number | null
  }>
  /** How often scheduled runs poll the changes feed, 5 to 15 (default 10). */
  pollIntervalMinutes?: number
  stockLocationId?: string
  salesChannelId?: string
  /** What a product removed from the catalog becomes: deleted (default) or draft. */
  removalMode?: RemovalMode
  /** The shop's primary language (default "uk"). */
  primaryLanguage?: PrimaryLanguage
  /**
   * The size option's words per language, e.g. `{ uk: { option: "Розмір", oneSize: "Один розмір" } }`
   * (defaults: "Розмір"/"Один розмір", "Размер"/"Один размер").
   */
  labels?: LabelOptions
  /**
   * The region first-run setup creates when no region sells uah: default
   * `{ name: "Україна", countries: ["ua"] }`; `create: false` leaves regions to the admin.
   */
  region?: { create?: boolean; name?: string; countries?: string[] }
  /**
   * The most the client adopts from the limits /v1/me reports (default 60/min, 3 at once).
   * Raise it only if your plan's limits are higher. Env fallback: CATALOG_SYNC_MAX_RPM and
   * CATALOG_SYNC_MAX_CONCURRENT.
   */
  rateLimitCeiling?: { requestsPerMinute?: number; maxConcurrent?: number }
  /**
   * Let the plugin connect to loopback, private, link-local and other non-public addresses
   * (default false: the catalog must be on a public address). For a self-hosted catalog on
   * the shop's own network, the sandbox and tests. Env fallback:
   * CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS=true.
   */
  allowPrivateNetworks?: boolean
}

/** The allowPrivateNetworks option, else CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS ("true"/"1"), else false. */
export function allowPrivateNetworks(options: Pick<CatalogSyncPluginOptions, "allowPrivateNetworks">, env: NodeJS.ProcessEnv = process.env): boolean {
  if (typeof options.allowPrivateNetworks === "boolean") return options.allowPrivateNetworks
  return /^(true|1|yes)$/i.test(env.CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS?.trim() ?? "")
}

/** The least length of an encryption secret a sync starts with. */
export const MIN_STRONG_SECRET_LENGTH = 32

/** How a secret is looked up in KNOWN_SECRET_DIGESTS (16 hex chars of its SHA-256). */
export function secretDigest(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex").slice(0, 16)
}

let knownDigests: Set<string> | null = null

/**
 * Why this encryption secret is unfit (too short, or a value found in this plugin's
 * repository: an old demo default, an example, a test value), or null when it is fit.
 */
export function encryptionSecretWeakness(secret: string): string | null {
  if (secret.length < MIN_STRONG_SECRET_LENGTH) {
    return `The encryption secret (plugin option encryptionKey or CATALOG_SYNC_ENCRYPTION_KEY) is shorter than ${MIN_STRONG_SECRET_LENGTH} characters: generate a random one, e.g. with \`openssl rand -base64 48\``
  }
  knownDigests ??= new Set(KNOWN_SECRET_DIGESTS)
  if (knownDigests.has(secretDigest(secret))) {
    return "The encryption secret (plugin option encryptionKey or CATALOG_SYNC_ENCRYPTION_KEY) is a value published with this plugin (an example, demo or test value): generate a random one, e.g. with `openssl rand -base64 48`"
  }
  return null
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
  primary_language: PrimaryLanguage
  enabled: boolean
  revision: number
}

export const DEFAULT_POLL_INTERVAL_MINUTES = 10
export const MIN_POLL_INTERVAL_MINUTES = 5
export const MAX_POLL_INTERVAL_MINUTES = 15

/** Shown instead of the key: "••••1234". */
export function maskApiKey(last4: string | null | undefined): string | null {
  return last4 ? `••••${last4}` : null
}

// ---------------------------------------------------------------------------------------------
// Validation of an admin's change (POST /admin/catalog-sync/settings: a partial body)

const percent = (max: number, maxInclusive: boolean) =>
  z
    .union([z.string(), z.number()])
    .nullable()
    .transform((value, ctx) => {
      if (value === null || (typeof value === "string" && value.trim() === "")) return null
      let d: Decimal
      try {
        d = new Decimal(typeof value === "number" ? String(value) : value.trim())
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a number" })
        return z.NEVER
      }
      const tooBig = maxInclusive ? d.greaterThan(max) : d.greaterThanOrEqualTo(max)
      if (!d.isFinite() || d.isNegative() || tooBig) {
        ctx.addIssue({
          code: "custom",
          message: maxInclusive ? `must be from 0 to ${max}` : `must be from 0 and below ${max}`,
        })
        return z.NEVER
      }
      if (d.decimalPlaces() > 4) {
        ctx.addIssue({ code: "custom", message: "must have at most 4 decimals" })
        return z.NEVER
      }
      return d.toFixed()
    })

/**
 * The one base-URL rule, for admin input and plugin options alike: http(s) with a host, no
 * credentials, query or fragment (the key must only ever go where the URL plainly says);
 * returned without /v1 and trailing slashes. http stays allowed (a sandbox on loopback).
 */
export function parseBaseUrl(value: string): { ok: true; url: string } | { ok: false; message: string } {
  const trimmed = value.trim()
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    return { ok: false, message: "must be an absolute http(s) URL" }
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) {
    return { ok: false, message: "must be an absolute http(s) URL" }
  }
  if (url.username || url.password || /^[a-z]+:\/\/[^/]*@/i.test(trimmed)) {
    return { ok: false, message: "must not contain credentials" }
  }
  if (url.search || url.hash || trimmed.includes("?") || trimmed.includes("#")) {
    return { ok: false, message: "must not contain a query string or fragment" }
  }
  return { ok: true, url: trimmed.replace(/\/+$/, "").replace(/\/v1$/, "") }
}

const httpUrl = z
  .string()
  .max(2000)
  .transform((value, ctx) => {
    const parsed = parseBaseUrl(value)
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.message })
      return z.NEVER
    }
    return parsed.url
  })

/** The form echoes the saved key back masked ("••••1234"): that means "keep the saved key". */
export const MASKED_KEY_PREFIX = "••••"

// An HTTP header value: printable ASCII without whitespace (a CR/LF would make the request
// throw inside undici, which then looks like a network error and is retried).
const apiKeyInput = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(1000)
  .refine(
    (value) => value.startsWith(MASKED_KEY_PREFIX) || /^[\x21-\x7e]+$/.test(value),
    "must be printable characters without spaces"
  )

const optionalId = z.string().trim().min(1).max(200).nullable()

export const settingsPatchSchema = z
  .object({
    base_url: httpUrl.nullable(),
    api_key: apiKeyInput.nullable(),
    price_calculation: z.enum(["min", "avg", "max"]),
    markup_percent: percent(1000, true),
    discount_percent: percent(100, false),
    old_price_markup_percent: percent(1000, true),
    poll_interval_minutes: z.coerce
      .number()
      .int("must be a whole number")
      .min(MIN_POLL_INTERVAL_MINUTES, `must be from ${MIN_POLL_INTERVAL_MINUTES} to ${MAX_POLL_INTERVAL_MINUTES}`)
      .max(MAX_POLL_INTERVAL_MINUTES, `must be from ${MIN_POLL_INTERVAL_MINUTES} to ${MAX_POLL_INTERVAL_MINUTES}`),
    stock_location_id: optionalId,
    sales_channel_id: optionalId,
    removal_mode: z.enum(["delete", "draft"]),
    primary_language: z.enum(["uk", "ru"]),
    enabled: z.boolean(),
  })
  .partial()
  .strict()

export type SettingsPatch = z.output<typeof settingsPatchSchema>

export type FieldError = { field: string; message: string }

export type PatchValidation =
  | { ok: true; patch: SettingsPatch }
  | { ok: false; errors: FieldError[] }

/**
 * Validates a partial change against the current effective values (the cross-field rule
 * "not both discount and old-price markup" applies to the result, not only the body).
 */
export function validateSettingsPatch(body: unknown, current: Pick<EffectiveSettings, "pricing">): PatchValidation {
  const parsed = settingsPatchSchema.safeParse(body ?? {})
  if (!parsed.success) {
    return { ok: false, errors: parsed.error.issues.map(issueToFieldError) }
  }
  const patch = parsed.data
  // A form that echoes the masked key back ("••••1234") means "keep the saved key".
  if (typeof patch.api_key === "string" && patch.api_key.startsWith(MASKED_KEY_PREFIX)) delete patch.api_key
  const discount = patch.discount_percent !== undefined ? patch.discount_percent : current.pricing.discount_percent
  const oldMarkup =
    patch.old_price_markup_percent !== undefined ? patch.old_price_markup_percent : current.pricing.old_price_markup_percent
  if (discount !== null && oldMarkup !== null) {
    const field = patch.discount_percent !== undefined && patch.discount_percent !== null ? "discount_percent" : "old_price_markup_percent"
    return {
      ok: false,
      errors: [{ field, message: "set either discount_percent or old_price_markup_percent, not both" }],
    }
  }
  return { ok: true, patch }
}

function issueToFieldError(issue: z.core.$ZodIssue): FieldError {
  if (issue.code === "unrecognized_keys") {
    return { field: String(issue.keys[0] ?? ""), message: "is not a setting" }
  }
  const field = issue.path.map(String).join(".") || "body"
  return { field, message: issue.message }
}

// ---------------------------------------------------------------------------------------------
// Effective settings = admin settings over plugin options over defaults

function normalisePercent(value: string | number | null | undefined): string | null {
  if (value === undefined || value === null || value === "") return null
  try {
    return new Decimal(String(value).trim()).toFixed()
  } catch {
    return null
  }
}

export function pricingFromOptions(options: CatalogSyncPluginOptions): PricingParams {
  const p = options.pricing ?? {}
  return {
    price_calculation: p.price_calculation ?? "max",
    markup_percent: normalisePercent(p.markup_percent),
    discount_percent: normalisePercent(p.discount_percent),
    old_price_markup_percent: normalisePercent(p.old_price_markup_percent),
  }
}

function clampInterval(minutes: number | undefined): number {
  if (minutes === undefined || !Number.isFinite(minutes)) return DEFAULT_POLL_INTERVAL_MINUTES
  return Math.min(MAX_POLL_INTERVAL_MINUTES, Math.max(MIN_POLL_INTERVAL_MINUTES, Math.round(minutes)))
}

/**
 * Combines the saved row (may be absent) with the plugin options. `decryptedKey` is the
 * row's key already decrypted (the crypto lives at the edge); `optionKeyHash` names an
 * options key. Pricing comes from the row once it exists, since the admin saved it as a set.
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
  const pricing: PricingParams = row
    ? {
        price_calculation: row.price_calculation ?? optionPricing.price_calculation,
        markup_percent: row.markup_percent,
        discount_percent: row.discount_percent,
        old_price_markup_percent: row.old_price_markup_percent,
      }
    : optionPricing
  return {
    baseUrl: row?.base_url || normaliseBaseUrl(options.baseUrl),
    apiKey,
    apiKeyHash: fromRow ? row!.api_key_hash : apiKey ? hashKey(apiKey) : null,
    apiKeyLast4: fromRow ? row!.api_key_last4 : apiKey ? apiKey.slice(-4) : null,
    pricing,
    pollIntervalMinutes: row ? clampInterval(row.poll_interval_minutes) : clampInterval(options.pollIntervalMinutes),
    stockLocationId: row?.stock_location_id ?? options.stockLocationId ?? null,
    salesChannelId: row?.sales_channel_id ?? options.salesChannelId ?? null,
    removalMode: row?.removal_mode ?? options.removalMode ?? "delete",
    primaryLanguage: row?.primary_language ?? options.primaryLanguage ?? "uk",
    vocabulary: resolveVocabulary(options.labels),
    region: regionFromOptions(options),
    enabled: row ? row.enabled : true,
    revision: row?.revision ?? 0,
  }
}

/** Plugin options' base URL through the same rule as admin input; an invalid one counts as unset. */
export function normaliseBaseUrl(url: string | undefined | null): string | null {
  if (!url?.trim()) return null
  const parsed = parseBaseUrl(url)
  return parsed.ok ? parsed.url : null
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

export type CheckTarget =
  | { ok: true; baseUrl: string; apiKey: string }
  | { ok: false; errors: FieldError[] }

/**
 * The URL and key a connection check (test-connection, a settings save) uses. The saved key
 * is only ever sent to the saved URL: a different base_url needs its api_key in the request.
 */
export function connectionCheckTarget(
  input: { base_url?: string | null; api_key?: string | null },
  current: Pick<EffectiveSettings, "baseUrl" | "apiKey">
): CheckTarget {
  const bodyUrl = typeof input.base_url === "string" ? input.base_url : null
  const bodyKey = typeof input.api_key === "string" && !input.api_key.startsWith(MASKED_KEY_PREFIX) ? input.api_key : null
  if (bodyUrl !== null && bodyUrl !== current.baseUrl && bodyKey === null) {
    return {
      ok: false,
      errors: [{ field: "api_key", message: "is required when base_url differs from the saved one (the saved key is only sent to the saved address)" }],
    }
  }
  const baseUrl = bodyUrl ?? current.baseUrl
  const apiKey = bodyKey ?? current.apiKey
  if (!baseUrl) return { ok: false, errors: [{ field: "base_url", message: "is not set" }] }
  if (!apiKey) return { ok: false, errors: [{ field: "api_key", message: "is not set" }] }
  return { ok: true, baseUrl, apiKey }
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
    markup_percent: settings.pricing.markup_percent,
    discount_percent: settings.pricing.discount_percent,
    old_price_markup_percent: settings.pricing.old_price_markup_percent,
    poll_interval_minutes: settings.pollIntervalMinutes,
    stock_location_id: settings.stockLocationId,
    sales_channel_id: settings.salesChannelId,
    removal_mode: settings.removalMode,
    primary_language: settings.primaryLanguage,
    enabled: settings.enabled,
    revision: settings.revision,
  }
}

export type PublicSettings = ReturnType<typeof toPublicSettings>
