// One GET against the catalog API, done right: a limiter slot per attempt, timeouts, retries
// with backoff (5xx, resets, timeouts, truncated bodies), Retry-After on 429, typed errors for
// everything else, and quota headers remembered. The key only ever sits in the request headers.
// Each of those is one small part in interceptors/; this file builds the chain and the pool.
import { Agent, type Dispatcher } from "undici"
import { abortable, abortReason, anySignal } from "./abort"
import { AddressNotAllowedError, guardedConnector, resolveAllowed, type AddressPolicy, type LookupFunction } from "./address-guard"
import { AbortedError, CatalogApiError } from "./errors"
import { memoisedApiErrors } from "./interceptors/api-error"
import { compose, type RawResponse, type Send } from "./interceptors/compose"
import { classifyFailures } from "./interceptors/failures"
import { parseJsonBody } from "./interceptors/json-body"
import { holdLimiterSlot } from "./interceptors/limiter-slot"
import { waitOutRateLimits } from "./interceptors/rate-limit-wait"
import { retryTransient } from "./interceptors/retry-transient"
import { sendRequest } from "./interceptors/send-request"
import { headerValue, type HeaderBag, type RateLimiter } from "./rate-limiter"
import { redactor } from "./redact"
import type { CatalogLogger } from "./logger"
import type { ResolvedRetryOptions } from "./retry-policy"

export interface TimeoutOptions {
  /** TCP/TLS connect. Default 10 s. */
  connectMs?: number
  /** From request sent to response headers. Default 30 s. */
  headersMs?: number
  /** Longest silence while reading the body. Default 60 s. */
  bodyMs?: number
}

export type { CatalogLogger } from "./logger"

export interface QuotaSnapshot {
  /** Last `X-RateLimit-Remaining` seen (requests left this minute), or null. */
  rateLimitRemaining: number | null
  /** Last `X-Quota-Remaining` seen (requests left today), or null. */
  quotaRemaining: number | null
  /** When they were seen (ms since epoch), or null. */
  observedAt: number | null
  /**
   * Answers the catalog counted (2xx) that told `X-Quota-Remaining` 0. The header stops at 0, so
   * two of them mean a request was counted past the day's quota, one that it was reached.
   */
  countedAtZero?: number
  /**
   * A request was counted past the day's quota: a counted answer at 0 left came after another
   * (this client's, or one the key's limiter kept today). At 0 without it the quota is reached.
   */
  quotaPassed?: boolean
}

export interface TransportOptions {
  baseUrl: string
  apiKey: string
  limiter: RateLimiter
  retry: ResolvedRetryOptions
  timeouts?: TimeoutOptions
  dispatcher?: Dispatcher
  logger?: CatalogLogger
  userAgent?: string
  /**
   * Which addresses may be connected to (see address-guard.ts). When set, the base URL's host
   * is resolved and checked before the first request takes a limiter slot, and the built-in
   * connection pool checks the resolved IP again on every connect. Unset: no check (library
   * callers that point at a host themselves); the plugin always sets it.
   */
  addressPolicy?: AddressPolicy
  /** Test hook: the DNS lookup the address check uses. */
  lookup?: LookupFunction
  /** Called when an answer's quota or rate headers contradict the plan /v1/me last reported (the client asks /v1/me again). */
  onPlanDisagrees?: () => void
}

export interface ApiResponse {
  status: number
  headers: HeaderBag
  /** Parsed JSON (numbers as LosslessNumber); undefined on 304. */
  body: unknown
  requestId: string | null
}

export interface GetOptions {
  signal?: AbortSignal
  headers?: Record<string, string>
}

export { HOLD_AFTER_TIMEOUT_MS } from "./interceptors/limiter-slot"

export class CatalogTransport {
  readonly #apiKey: string
  readonly #baseUrl: string
  readonly #limiter: RateLimiter
  readonly #dispatcher: Dispatcher
  readonly #ownsDispatcher: boolean
  readonly #userAgent: string
  readonly #closing = new AbortController()
  readonly #host: string
  readonly #addressPolicy: AddressPolicy | undefined
  readonly #lookup: LookupFunction | undefined
  readonly #apiErrorOf: (response: RawResponse) => CatalogApiError
  readonly #send: Send
  #addressChecked = false
  #quota: QuotaSnapshot = { rateLimitRemaining: null, quotaRemaining: null, observedAt: null, countedAtZero: 0, quotaPassed: false }
  #retryNotBefore: number | null = null
  readonly #onPlanDisagrees: (() => void) | undefined

  constructor(options: TransportOptions) {
    if (typeof options.apiKey !== "string" || options.apiKey.length === 0) throw new TypeError("apiKey is required")
    let base: URL
    try {
      base = new URL(options.baseUrl)
    } catch {
      throw new TypeError("baseUrl must be an absolute http(s) URL")
    }
    if (base.protocol !== "http:" && base.protocol !== "https:") throw new TypeError("baseUrl must be http(s)")
    this.#apiKey = options.apiKey
    this.#onPlanDisagrees = options.onPlanDisagrees
    const redact = redactor(options.apiKey)
    this.#baseUrl = base.toString().replace(/\/+$/, "")
    this.#host = base.hostname
    this.#addressPolicy = options.addressPolicy
    this.#lookup = options.lookup
    this.#limiter = options.limiter
    this.#userAgent = options.userAgent ?? "medusa-catalog-sync"
    this.#ownsDispatcher = options.dispatcher === undefined
    this.#dispatcher =
      options.dispatcher ??
      new Agent({
        connectTimeout: options.timeouts?.connectMs ?? 10_000,
        // No redirect interceptor: a 3xx is an answer, never a second request elsewhere.
        ...(options.addressPolicy
          ? { connect: guardedConnector(options.addressPolicy, { timeoutMs: options.timeouts?.connectMs ?? 10_000, lookup: options.lookup }) }
          : {}),
        headersTimeout: options.timeouts?.headersMs ?? 30_000,
        bodyTimeout: options.timeouts?.bodyMs ?? 60_000,
        keepAliveTimeout: 4_000,
        connections: 16,
      })
    this.#apiErrorOf = memoisedApiErrors(redact)
    const { retry, logger, limiter } = options
    // Outermost first. The slot is held from before the request until the body is read, and
    // given back before a body is parsed or a retry waits.
    this.#send = compose(
      retryTransient(retry, this.#apiErrorOf, logger),
      waitOutRateLimits({
        retry,
        limiter,
        apiErrorOf: this.#apiErrorOf,
        onGiveUp: (notBefore) => (this.#retryNotBefore = Math.max(this.#retryNotBefore ?? 0, notBefore)),
        logger,
      }),
      parseJsonBody,
      holdLimiterSlot(limiter),
      classifyFailures(redact)
    )(sendRequest(this.#dispatcher, (headers, status) => this.#noteHeaders(headers, status)))
  }

  get quota(): QuotaSnapshot {
    return { ...this.#quota }
  }

  get limiter(): RateLimiter {
    return this.#limiter
  }

  /** After a 429 this client gave up on: when the API said to try again (ms since epoch), or null. */
  get retryNotBefore(): number | null {
    return this.#retryNotBefore
  }

  /** Aborts calls in progress and closes the connection pool. */
  async close(): Promise<void> {
    this.#closing.abort(new AbortedError("The catalog client was closed"))
    if (this.#ownsDispatcher) await this.#dispatcher.close().catch(() => {})
  }

  async get(path: string, query: Record<string, string>, options: GetOptions = {}): Promise<ApiResponse> {
    const signal = anySignal([options.signal, this.#closing.signal])!
    const search = new URLSearchParams(query).toString()
    const logPath = `${path}${search ? `?${search}` : ""}`
    await this.#checkAddress(signal)
    const response = await this.#send({
      url: `${this.#baseUrl}${logPath}`,
      logPath,
      headers: {
        accept: "application/json",
        "user-agent": this.#userAgent,
        ...options.headers,
        "x-api-key": this.#apiKey,
      },
      signal,
      budget: { retries: 0, rateLimitWaits: 0 },
    })
    const { status, headers, requestId } = response
    if (status === 304) return { status, headers, body: undefined, requestId }
    if (status >= 200 && status < 300) return { status, headers, body: response.body, requestId }
    if (status >= 300 && status < 400) {
      // Redirects are never followed: the next hop could be any address, and the key would go along.
      throw new CatalogApiError(`The catalog answered a redirect (HTTP ${status}) for ${logPath}; redirects are not followed`, {
        code: "redirect_not_followed",
        status,
        requestId,
      })
    }
    throw this.#apiErrorOf(response)
  }

  /**
   * Before the first request takes a slot: the base URL's host must resolve to allowed
   * addresses only. The connector checks again on every connect (DNS answers may change).
   */
  async #checkAddress(signal: AbortSignal): Promise<void> {
    if (!this.#addressPolicy || this.#addressChecked) return
    if (signal.aborted) throw abortReason(signal)
    try {
      // getaddrinfo cannot be cancelled and may hang for long: the call stops waiting on abort.
      await abortable(resolveAllowed(this.#host, this.#addressPolicy, this.#lookup), signal)
    } catch (error) {
      if (error instanceof AddressNotAllowedError) throw error
      if (signal.aborted) throw abortReason(signal)
      // A name that does not resolve fails like any other connect error, through the retries.
      return
    }
    this.#addressChecked = true
  }

  async #noteHeaders(headers: HeaderBag, status?: number): Promise<void> {
    const int = (name: string) => {
      const raw = headerValue(headers, name)
      return raw !== undefined && /^\s*-?[0-9]+\s*$/.test(raw) ? Number(raw) : null
    }
    const rate = int("x-ratelimit-remaining")
    const quota = int("x-quota-remaining")
    // 304s and refusals are not counted by the catalog (spec: requests_today).
    const countedAtZero = quota === 0 && status !== undefined && status >= 200 && status < 300
    // The first such answer of this client: was 0 left already told today (the key's limiter, before it learns this answer)?
    const zeroBefore = countedAtZero && !this.#quota.countedAtZero ? (await this.#limiter.quotaRemainingToday?.().catch(() => null)) === 0 : false
    if (rate !== null || quota !== null) {
      this.#quota = {
        rateLimitRemaining: rate ?? this.#quota.rateLimitRemaining,
        quotaRemaining: quota ?? this.#quota.quotaRemaining,
        observedAt: Date.now(),
        countedAtZero: (this.#quota.countedAtZero ?? 0) + (countedAtZero ? 1 : 0),
        quotaPassed: !!this.#quota.quotaPassed || (countedAtZero && (zeroBefore || (this.#quota.countedAtZero ?? 0) >= 1)),
      }
    }
    // The limiter learning is best effort: a Redis hiccup must not fail a good response.
    const seen = await this.#limiter.observe(headers).catch(() => undefined)
    if (seen && seen.planDisagrees) this.#onPlanDisagrees?.()
  }
}
