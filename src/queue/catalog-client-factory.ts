// Builds the catalog client a run or a route uses: the effective settings' URL, key and
// pricing, one rate limit per key (named by the key's HMAC alone, whatever the host) shared by
// every client and every instance of the app, and the outbound address policy. The runtime
// module owns one factory, made from the configuration it resolved at load.
import type Redis from "ioredis"
import {
  apiKeyId,
  CatalogClient,
  MemoryRateLimiter,
  type LimitsDiscovery,
  type PricingOptions,
  type RateLimiter,
  type RateLimits,
  type RetryOptions,
} from "../catalog-client"
import { RedisRateLimiter } from "../catalog-client"
import { allowPrivateNetworks, encryptionSecretWeakness, type CatalogSyncPluginOptions, type EffectiveSettings, type PricingParams } from "../sync/settings"
import { resolveEncryptionSecret } from "../modules/catalog_sync/secret-crypto"
import { parseEnvironment, readEnvironment, type PluginEnvironment } from "../config/environment"
import { redisKeys } from "./redis"

export function toPricingOptions(pricing: PricingParams): PricingOptions {
  return {
    price_calculation: pricing.price_calculation,
    markup_percent: pricing.markup_percent,
    discount_percent: pricing.discount_percent,
    old_price_markup_percent: pricing.old_price_markup_percent,
  }
}

export type ClientExtras = {
  signal?: AbortSignal
  /** Overrides the retry policy (admin routes answer within seconds, not after 6 retries). */
  retry?: RetryOptions
  /** Adopt the limits /v1/me reports into the limiter (default true; route checks: false). */
  adoptLimits?: boolean
}

/** The settings a client is built from. */
export type ClientSettings = Pick<EffectiveSettings, "baseUrl" | "apiKey" | "apiKeyHash" | "pricing">

/** A run (or any call) refused because the configured encryption secret is unfit. */
export class WeakEncryptionSecretError extends Error {
  readonly code = "weak_encryption_secret"
  constructor(message: string) {
    super(message)
    this.name = "WeakEncryptionSecretError"
  }
}

/**
 * Without Redis: one limiter per key for the whole process, so every client of a key (every
 * factory's, a run's and a route's alike) shares the budget. Process-wide on purpose.
 */
const memoryLimiters = new Map<string, MemoryRateLimiter>()
/** Without Redis: when each key's limiter last adopted /v1/me limits (ms), beside its limiter. */
const memoryLimitsAdoptedAt = new Map<string, number>()

/** How long limits adopted from /v1/me stand before a run asks again (default one hour). */
export const LIMITS_MAX_AGE_MS = 3_600_000
/** The Redis limiter keeps adopted limits 24 h after their last update: ask well before. */
const LIMITS_MAX_AGE_CAP_MS = 23 * 3_600_000

export class CatalogClientFactory {
  readonly #options: CatalogSyncPluginOptions
  readonly #env: PluginEnvironment
  readonly #redis: () => Redis | null
  readonly #prefix: string

  /**
   * @param redis the runtime's command connection (null without Redis: in-process limiters)
   * @param prefix the runtime's Redis prefix
   */
  constructor(input: { options: CatalogSyncPluginOptions; env: PluginEnvironment; redis?: () => Redis | null; prefix?: string }) {
    this.#options = input.options
    this.#env = input.env
    this.#redis = input.redis ?? (() => null)
    this.#prefix = input.prefix ?? "mcs"
  }

  /**
   * The most adopted limits may reach: the plugin option rateLimitCeiling, else the env
   * CATALOG_SYNC_MAX_RPM / CATALOG_SYNC_MAX_CONCURRENT (tests against a sandbox with raised
   * limits); undefined means the client's defaults (60/min, 3 at once).
   */
  rateLimitCeiling(): Partial<RateLimits> | undefined {
    const { values } = parseEnvironment(this.#env)
    const requestsPerMinute = this.#options.rateLimitCeiling?.requestsPerMinute ?? values.CATALOG_SYNC_MAX_RPM
    const maxConcurrent = this.#options.rateLimitCeiling?.maxConcurrent ?? values.CATALOG_SYNC_MAX_CONCURRENT
    if (requestsPerMinute === undefined && maxConcurrent === undefined) return undefined
    return { requestsPerMinute, maxConcurrent }
  }

  /** The configured encryption secret (option, else environment), or null. */
  encryptionSecret(): string | null {
    return resolveEncryptionSecret(this.#options.encryptionKey, this.#env)
  }

  /**
   * Why the plugin must not call the catalog with this configuration, or null. A secret that is
   * set must be strong (32+ characters, not a value published with the plugin); none at all is
   * allowed only for a key given as a plugin option (a key saved in the admin needs one).
   */
  encryptionSecretRefusal(): string | null {
    const secret = this.encryptionSecret()
    return secret ? encryptionSecretWeakness(secret) : null
  }

  /**
   * The key's one limiter. Named by the key alone (its HMAC under the encryption secret), never
   * by host or settings row: a run, a status check and any number of test-connection calls,
   * whatever name they use for the host, wait in the same queue and the same window.
   */
  limiterFor(apiKey: string): RateLimiter {
    const ceiling = this.rateLimitCeiling()
    const keyId = apiKeyId(apiKey, this.encryptionSecret())
    const redis = this.#redis()
    if (redis) return new RedisRateLimiter({ redis, keyId, prefix: redisKeys(this.#prefix).rateLimit, ceiling })
    let limiter = memoryLimiters.get(keyId)
    if (!limiter) {
      limiter = new MemoryRateLimiter({ ceiling })
      memoryLimiters.set(keyId, limiter)
    }
    return limiter
  }

  /**
   * Shares /v1/me limits discovery between the clients of one key: a run's client asks /v1/me
   * only when no client of that key adopted limits within CATALOG_SYNC_LIMITS_MAX_AGE_MS (one
   * hour by default). The limits themselves stay in the key's limiter (its Redis state, or the
   * process-wide in-memory limiter), so every request in between still obeys them; a 429's
   * Retry-After pauses that same limiter. Undefined (discover every time) when set to 0.
   */
  limitsDiscoveryFor(apiKey: string): LimitsDiscovery | undefined {
    const configured = parseEnvironment(this.#env).values.CATALOG_SYNC_LIMITS_MAX_AGE_MS ?? LIMITS_MAX_AGE_MS
    const maxAgeMs = Math.min(configured, LIMITS_MAX_AGE_CAP_MS)
    if (maxAgeMs <= 0) return undefined
    const keyId = apiKeyId(apiKey, this.encryptionSecret())
    const redis = this.#redis()
    if (redis) {
      const marker = `${redisKeys(this.#prefix).rateLimit}:{${keyId}}:limits_adopted`
      return {
        due: async () => (await redis.exists(marker)) === 0,
        adopted: async () => {
          await redis.set(marker, String(Date.now()), "PX", maxAgeMs)
        },
      }
    }
    return {
      due: async () => {
        const at = memoryLimitsAdoptedAt.get(keyId)
        return at === undefined || Date.now() - at >= maxAgeMs || Date.now() < at
      },
      adopted: async () => {
        memoryLimitsAdoptedAt.set(keyId, Date.now())
      },
    }
  }

  /**
   * A client for the effective settings (throws when the URL or key is missing, and with code
   * weak_encryption_secret when the configured secret is unfit).
   */
  create(settings: ClientSettings, extra: ClientExtras = {}): CatalogClient {
    if (!settings.baseUrl || !settings.apiKey) {
      throw new Error("The catalog API base URL and key are not configured")
    }
    const refusal = this.encryptionSecretRefusal()
    if (refusal) throw new WeakEncryptionSecretError(refusal)
    const override = this.#clientRetryOverride()
    return new CatalogClient({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      pricing: toPricingOptions(settings.pricing),
      limiter: this.limiterFor(settings.apiKey),
      addressPolicy: { allowPrivateNetworks: allowPrivateNetworks(this.#options, { ...this.#env }) },
      signal: extra.signal,
      ...(extra.adoptLimits === false ? { adoptLimits: false } : { limitsDiscovery: this.limitsDiscoveryFor(settings.apiKey) }),
      ...(extra.retry || override.retry ? { retry: { ...override.retry, ...extra.retry } } : {}),
    })
  }

  /** Test hook: fewer in-request retries (CATALOG_SYNC_CLIENT_MAX_RETRIES), so a failing API fails a run fast. */
  #clientRetryOverride(): { retry?: { maxRetries: number; baseDelayMs: number } } {
    const value = parseEnvironment(this.#env).values.CATALOG_SYNC_CLIENT_MAX_RETRIES
    return value !== undefined ? { retry: { maxRetries: value, baseDelayMs: 100 } } : {}
  }
}

/**
 * A factory outside the runtime: no plugin options, no Redis, the environment as it is now
 * (scripts and tests; the app's routes and runs use the runtime module's factory).
 */
export function standaloneClientFactory(): CatalogClientFactory {
  return new CatalogClientFactory({ options: {}, env: readEnvironment() })
}

/** A client from a standalone factory (see standaloneClientFactory). */
export function createCatalogClientFor(_container: unknown, settings: ClientSettings, extra: ClientExtras = {}): CatalogClient {
  return standaloneClientFactory().create(settings, extra)
}
