// One GET against the catalog API, done right: a limiter slot per attempt, timeouts, retries
// with backoff (5xx, resets, timeouts, truncated bodies), Retry-After on 429, typed errors for
// everything else, and quota headers remembered. The key only ever sits in the request headers.
import { Agent, request, type Dispatcher } from "undici"
import { abortReason, anySignal, sleep } from "./abort"
import { AddressNotAllowedError, guardedConnector, resolveAllowed, type AddressPolicy, type LookupFunction } from "./address-guard"
import {
  AbortedError,
  CatalogApiError,
  DailyQuotaExceededError,
  InvalidApiKeyError,
  InvalidCursorError,
  NetworkError,
  NotFoundError,
  PlanRequiredError,
  PricingChangedError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  ValidationError,
  type CatalogApiErrorInit,
  type ValidationDetail,
} from "./errors"
import { parseCatalogJson, parseExactJson } from "./json"
import { headerValue, type HeaderBag, type RateLimiter, type Release } from "./rate-limiter"
import { redactor } from "./redact"
import { backoffDelayMs, parseRetryAfterMs, type ResolvedRetryOptions } from "./retry-policy"
import { errorBodySchema } from "./schemas"

export interface TimeoutOptions {
  /** TCP/TLS connect. Default 10 s. */
  connectMs?: number
  /** From request sent to response headers. Default 30 s. */
  headersMs?: number
  /** Longest silence while reading the body. Default 60 s. */
  bodyMs?: number
}

export interface CatalogLogger {
  debug?(message: string, fields?: Record<string, unknown>): void
  warn?(message: string, fields?: Record<string, unknown>): void
}

export interface QuotaSnapshot {
  /** Last `X-RateLimit-Remaining` seen (requests left this minute), or null. */
  rateLimitRemaining: number | null
  /** Last `X-Quota-Remaining` seen (requests left today), or null. */
  quotaRemaining: number | null
  /** When they were seen (ms since epoch), or null. */
  observedAt: number | null
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

type Failure = { kind: "timeout" | "network"; message: string; code: string }

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"])
/**
 * How long a slot stays taken after a timeout or abort: the server may still be serving (and
 * counting) the request, so starting another at once could make one too many in flight.
 */
export const HOLD_AFTER_TIMEOUT_MS = 5000

/** The promise, or a rejection with the abort reason as soon as the signal aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal))
    signal.addEventListener("abort", onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort)
        resolve(value)
      },
      (error) => {
        signal.removeEventListener("abort", onAbort)
        reject(error)
      },
    )
  })
}

export class CatalogTransport {
  readonly #apiKey: string
  readonly #baseUrl: string
  readonly #limiter: RateLimiter
  readonly #retry: ResolvedRetryOptions
  readonly #dispatcher: Dispatcher
  readonly #ownsDispatcher: boolean
  readonly #logger: CatalogLogger | undefined
  readonly #userAgent: string
  readonly #redact: (text: string) => string
  readonly #closing = new AbortController()
  readonly #host: string
  readonly #addressPolicy: AddressPolicy | undefined
  readonly #lookup: LookupFunction | undefined
  #addressChecked = false
  #quota: QuotaSnapshot = { rateLimitRemaining: null, quotaRemaining: null, observedAt: null }
  #retryNotBefore: number | null = null

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
    this.#redact = redactor(options.apiKey)
    this.#baseUrl = base.toString().replace(/\/+$/, "")
    this.#host = base.hostname
    this.#addressPolicy = options.addressPolicy
    this.#lookup = options.lookup
    this.#limiter = options.limiter
    this.#retry = options.retry
    this.#logger = options.logger
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
    const url = `${this.#baseUrl}${path}${search ? `?${search}` : ""}`
    const logPath = `${path}${search ? `?${search}` : ""}`
    let retries = 0
    let rateLimitWaits = 0
    await this.#checkAddress(signal)

    for (;;) {
      if (signal.aborted) throw abortReason(signal)
      const release = await this.#limiter.acquire(signal)
      let response: Dispatcher.ResponseData
      let text: string
      try {
        response = await request(url, {
          method: "GET",
          headers: {
            accept: "application/json",
            "user-agent": this.#userAgent,
            ...options.headers,
            "x-api-key": this.#apiKey,
          },
          signal,
          dispatcher: this.#dispatcher,
        })
      } catch (error) {
        retries = await this.#attemptFailed(error, release, retries, logPath, signal)
        continue
      }
      const headers = response.headers as HeaderBag
      await this.#noteHeaders(headers)
      try {
        text = await response.body.text()
      } catch (error) {
        retries = await this.#attemptFailed(error, release, retries, logPath, signal)
        continue
      }
      release()

      const status = response.statusCode
      const traceId = headerValue(headers, "x-trace-id") ?? null
      if (status === 304) return { status, headers, body: undefined, requestId: traceId }
      if (status >= 200 && status < 300) {
        let body: unknown
        try {
          body = parseCatalogJson(text)
        } catch {
          // A 200 whose JSON does not parse was cut short on the way: fetch it again.
          retries = await this.#retryOrThrow(
            { kind: "network", code: "truncated_body", message: `Truncated or malformed JSON body (${text.length} bytes)` },
            retries,
            logPath,
            signal,
            traceId,
          )
          continue
        }
        return { status, headers, body, requestId: traceId }
      }

      if (status >= 300 && status < 400) {
        // Redirects are never followed: the next hop could be any address, and the key would go along.
        throw new CatalogApiError(`The catalog answered a redirect (HTTP ${status}) for ${logPath}; redirects are not followed`, {
          code: "redirect_not_followed",
          status,
          requestId: traceId,
        })
      }
      const apiError = this.#errorFrom(status, text, headers)
      if (status === 429) {
        const waitMs = parseRetryAfterMs(headerValue(headers, "retry-after"))
        const effectiveWait = waitMs ?? backoffDelayMs(rateLimitWaits + 1, this.#retry)
        if (effectiveWait > this.#retry.retryAfterCeilingMs || rateLimitWaits >= this.#retry.maxRateLimitWaits) {
          // Not waited out here, but every other holder of the key must still hold off.
          if (apiError.code !== "daily_quota_exceeded") await this.#limiter.pauseFor(effectiveWait).catch(() => {})
          this.#retryNotBefore = Math.max(this.#retryNotBefore ?? 0, Date.now() + effectiveWait)
          throw apiError
        }
        rateLimitWaits++
        this.#logger?.warn?.("catalog API answered 429; waiting Retry-After", {
          path: logPath,
          code: apiError.code,
          wait_ms: effectiveWait,
          request_id: apiError.requestId,
        })
        if (apiError.code !== "daily_quota_exceeded") await this.#limiter.pauseFor(effectiveWait).catch(() => {})
        await sleep(effectiveWait, signal)
        continue
      }
      if (status >= 500) {
        const retryAfter = parseRetryAfterMs(headerValue(headers, "retry-after"))
        if (retries < this.#retry.maxRetries) {
          retries++
          const delay = Math.min(
            Math.max(backoffDelayMs(retries, this.#retry), retryAfter ?? 0),
            this.#retry.retryAfterCeilingMs,
          )
          this.#logger?.warn?.("catalog API server error; retrying", {
            path: logPath,
            status,
            retry: retries,
            delay_ms: delay,
            request_id: apiError.requestId,
          })
          await sleep(delay, signal)
          continue
        }
      }
      throw apiError
    }
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

  async #noteHeaders(headers: HeaderBag): Promise<void> {
    const int = (name: string) => {
      const raw = headerValue(headers, name)
      return raw !== undefined && /^\s*-?[0-9]+\s*$/.test(raw) ? Number(raw) : null
    }
    const rate = int("x-ratelimit-remaining")
    const quota = int("x-quota-remaining")
    if (rate !== null || quota !== null) {
      this.#quota = {
        rateLimitRemaining: rate ?? this.#quota.rateLimitRemaining,
        quotaRemaining: quota ?? this.#quota.quotaRemaining,
        observedAt: Date.now(),
      }
    }
    // The limiter learning is best effort: a Redis hiccup must not fail a good response.
    await this.#limiter.observe(headers).catch(() => {})
  }

  /**
   * A request or body read threw: give the slot back (held on a timeout or abort, as the
   * server may still be counting it), then retry after backoff or throw. Returns the new retry count.
   */
  async #attemptFailed(
    error: unknown,
    release: Release,
    retries: number,
    logPath: string,
    signal: AbortSignal,
  ): Promise<number> {
    if (signal.aborted) {
      release({ holdMs: HOLD_AFTER_TIMEOUT_MS })
      throw abortReason(signal)
    }
    if (error instanceof AddressNotAllowedError) {
      // Refused before any socket existed: nothing to wait out, nothing to retry.
      release()
      throw error
    }
    const failure = this.#classify(error)
    release({ holdMs: failure.kind === "timeout" ? HOLD_AFTER_TIMEOUT_MS : 0 })
    return this.#retryOrThrow(failure, retries, logPath, signal)
  }

  #classify(error: unknown): Failure {
    const code = String((error as { code?: unknown })?.code ?? (error as { cause?: { code?: unknown } })?.cause?.code ?? "")
    const message = this.#redact(String((error as Error)?.message ?? error))
    const kind = TIMEOUT_CODES.has(code) || /timeout/i.test(code) ? "timeout" : "network"
    return { kind, message, code: code || "network_error" }
  }

  async #retryOrThrow(
    failure: Failure,
    retries: number,
    logPath: string,
    signal: AbortSignal,
    requestId: string | null = null,
  ): Promise<number> {
    if (retries >= this.#retry.maxRetries) {
      const init: CatalogApiErrorInit = { code: failure.code, status: null, requestId }
      const message = `Catalog request ${logPath} failed after ${retries + 1} attempts: ${failure.message}`
      throw failure.kind === "timeout" ? new TimeoutError(message, init) : new NetworkError(message, init)
    }
    const next = retries + 1
    const delay = backoffDelayMs(next, this.#retry)
    this.#logger?.warn?.("catalog request failed; retrying", {
      path: logPath,
      error: failure.code,
      retry: next,
      delay_ms: delay,
    })
    await sleep(delay, signal)
    return next
  }

  #errorFrom(status: number, text: string, headers: HeaderBag): CatalogApiError {
    let code = status === 429 ? "rate_limited" : status >= 500 ? "internal_error" : `http_${status}`
    let message: string | null = null
    let requestId: string | null = headerValue(headers, "x-trace-id") ?? null
    let details: ValidationDetail[] | null = null
    try {
      const parsed = errorBodySchema.safeParse(parseExactJson(text))
      if (parsed.success) {
        code = parsed.data.error.code
        message = parsed.data.error.message ?? null
        requestId = parsed.data.error.request_id ?? requestId
        details =
          parsed.data.error.details?.map((d) => ({
            field: d.field ?? null,
            message: this.#redact(d.message ?? ""),
          })) ?? null
      }
    } catch {
      // Not JSON (a proxy's error page): keep the status-derived code.
    }
    const retryAfterMs = parseRetryAfterMs(headerValue(headers, "retry-after"))
    const init: CatalogApiErrorInit = {
      code,
      status,
      requestId,
      details,
      retryAfterSeconds: retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000),
    }
    const text_ = this.#redact(message ?? `HTTP ${status}`)
    const full = `${text_} (${code}, HTTP ${status}${requestId ? `, request_id ${requestId}` : ""})`
    if (status === 401) return new InvalidApiKeyError(full, init)
    if (status === 403) return new PlanRequiredError(full, init)
    if (status === 404) return new NotFoundError(full, init)
    if (status === 422) {
      if (code === "invalid_cursor") return new InvalidCursorError(full, init)
      if (code === "pricing_changed") return new PricingChangedError(full, init)
      return new ValidationError(full, init)
    }
    if (status === 429) {
      if (code === "daily_quota_exceeded") return new DailyQuotaExceededError(full, init)
      return new RateLimitedError(full, init)
    }
    if (status >= 500) return new ServerError(full, init)
    return new CatalogApiError(full, init)
  }
}
