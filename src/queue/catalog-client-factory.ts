// Builds the catalog client a run or a route uses: the effective settings' URL, key and
// pricing, one rate limit per key (named by the key's HMAC alone, whatever the host) shared by
// every client and every instance of the app, and the outbound address policy.
import { apiKeyId, CatalogClient, MemoryRateLimiter, type PricingOptions, type RateLimiter, type RateLimits, type RetryOptions } from "../catalog-client"
import { RedisRateLimiter } from "../catalog-client"
import { allowPrivateNetworks, encryptionSecretWeakness, type CatalogSyncPluginOptions, type EffectiveSettings, type PricingParams } from "../sync/settings"
import { resolveEncryptionSecret } from "../modules/catalog_sync/secret-crypto"
import { redisKeys } from "./redis"
import { catalogSyncRuntime } from "./runtime"
import type { CatalogSyncServiceLike } from "./types"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"

export { CATALOG_SYNC_MODULE }

type Resolver = { resolve<T = unknown>(key: string): T }

export function catalogSyncService(container: Resolver): CatalogSyncServiceLike {
  return container.resolve<CatalogSyncServiceLike>(CATALOG_SYNC_MODULE)
}

/** Admin settings over plugin options, the key decrypted. Never log the result. */
export async function loadEffectiveSettings(container: Resolver): Promise<EffectiveSettings> {
  return catalogSyncService(container).getEffectiveSettings()
}

export function toPricingOptions(pricing: PricingParams): PricingOptions {
  return {
    price_calculation: pricing.price_calculation,
    markup_percent: pricing.markup_percent,
    discount_percent: pricing.discount_percent,
    old_price_markup_percent: pricing.old_price_markup_percent,
  }
}

/**
 * The most adopted limits may reach: the plugin option rateLimitCeiling, else the env
 * CATALOG_SYNC_MAX_RPM / CATALOG_SYNC_MAX_CONCURRENT (tests against a sandbox with raised
 * limits); undefined means the client's defaults (60/min, 3 at once).
 */
export function rateLimitCeiling(options: CatalogSyncPluginOptions = catalogSyncRuntime.options): Partial<RateLimits> | undefined {
  const fromEnv = (name: string) => {
    const value = Number(process.env[name])
    return Number.isSafeInteger(value) && value >= 1 ? value : undefined
  }
  const requestsPerMinute = options.rateLimitCeiling?.requestsPerMinute ?? fromEnv("CATALOG_SYNC_MAX_RPM")
  const maxConcurrent = options.rateLimitCeiling?.maxConcurrent ?? fromEnv("CATALOG_SYNC_MAX_CONCURRENT")
  if (requestsPerMinute === undefined && maxConcurrent === undefined) return undefined
  return { requestsPerMinute, maxConcurrent }
}

/** Without Redis: one limiter per key for the whole process, so its clients share the budget. */
const memoryLimiters = new Map<string, MemoryRateLimiter>()

/**
 * The key's one limiter. Named by the key alone (its HMAC under the encryption secret), never
 * by host or settings row: a run, a status check and any number of test-connection calls,
 * whatever name they use for the host, wait in the same queue and the same window.
 */
export function limiterFor(apiKey: string): RateLimiter {
  const ceiling = rateLimitCeiling()
  const keyId = apiKeyId(apiKey, resolveEncryptionSecret(catalogSyncRuntime.options.encryptionKey))
  const redis = catalogSyncRuntime.commandRedis()
  if (redis) return new RedisRateLimiter({ redis, keyId, prefix: redisKeys().rateLimit, ceiling })
  let limiter = memoryLimiters.get(keyId)
  if (!limiter) {
    limiter = new MemoryRateLimiter({ ceiling })
    memoryLimiters.set(keyId, limiter)
  }
  return limiter
}

export type ClientExtras = {
  signal?: AbortSignal
  /** Overrides the retry policy (admin routes answer within seconds, not after 6 retries). */
  retry?: RetryOptions
  /** Adopt the limits /v1/me reports into the limiter (default true; route checks: false). */
  adoptLimits?: boolean
}

/** A run (or any call) refused because the configured encryption secret is unfit. */
export class WeakEncryptionSecretError extends Error {
  readonly code = "weak_encryption_secret"
  constructor(message: string) {
    super(message)
    this.name = "WeakEncryptionSecretError"
  }
}

/**
 * Why the plugin must not call the catalog with this configuration, or null. A secret that is
 * set must be strong (32+ characters, not a value published with the plugin); none at all is
 * allowed only for a key given as a plugin option (a key saved in the admin needs one).
 */
export function encryptionSecretRefusal(options: CatalogSyncPluginOptions = catalogSyncRuntime.options): string | null {
  const secret = resolveEncryptionSecret(options.encryptionKey)
  return secret ? encryptionSecretWeakness(secret) : null
}

/**
 * A client for the effective settings (throws when the URL or key is missing, and with code
 * weak_encryption_secret when the configured secret is unfit).
 */
export function createCatalogClientFor(
  _container: Resolver | null,
  settings: Pick<EffectiveSettings, "baseUrl" | "apiKey" | "apiKeyHash" | "pricing">,
  extra: ClientExtras = {}
): CatalogClient {
  if (!settings.baseUrl || !settings.apiKey) {
    throw new Error("The catalog API base URL and key are not configured")
  }
  const refusal = encryptionSecretRefusal()
  if (refusal) throw new WeakEncryptionSecretError(refusal)
  const override = clientRetryOverride()
  return new CatalogClient({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    pricing: toPricingOptions(settings.pricing),
    limiter: limiterFor(settings.apiKey),
    addressPolicy: { allowPrivateNetworks: allowPrivateNetworks(catalogSyncRuntime.options) },
    signal: extra.signal,
    ...(extra.adoptLimits === false ? { adoptLimits: false } : {}),
    ...(extra.retry || override.retry ? { retry: { ...override.retry, ...extra.retry } } : {}),
  })
}

/** Test hook: fewer in-request retries (CATALOG_SYNC_CLIENT_MAX_RETRIES), so a failing API fails a run fast. */
function clientRetryOverride(): { retry?: { maxRetries: number; baseDelayMs: number } } {
  const value = Number(process.env.CATALOG_SYNC_CLIENT_MAX_RETRIES)
  return Number.isInteger(value) && value >= 0 ? { retry: { maxRetries: value, baseDelayMs: 100 } } : {}
}
