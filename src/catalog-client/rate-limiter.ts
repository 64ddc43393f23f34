// The limiter contract. One limiter per API key: it keeps the key under its requests-per-minute
// window and its concurrency cap. MemoryRateLimiter serves one process; RedisRateLimiter shares
// the budget between every process that uses the key (server and worker instances).

export interface RateLimits {
  requestsPerMinute: number
  maxConcurrent: number
}

export interface ReleaseOptions {
  /**
   * Keep the concurrency slot this many ms longer. Used after a timeout or abort: the server may
   * still be working on the request, so the slot is not yet free from its point of view.
   */
  holdMs?: number
}

/** Gives the slot back. Idempotent. */
export type Release = (options?: ReleaseOptions) => void

/**
 * The plan's figures as the last /v1/me told them (requests per day and per minute, and whether the
 * catalog enforces the daily quota: null when not told).
 */
export type PlanFigures = { requestsPerDay: number; requestsPerMinute: number; quotaEnforced?: boolean | null }

/**
 * The plan as the key's limiter holds it. `stale`: since /v1/me last told it, the catalog's own
 * answers contradicted it (headers, a refused /v1/me), so its figures are no longer told as true.
 */
export type KnownPlan = PlanFigures & { stale: boolean }

export type HeaderBag = Record<string, string | string[] | undefined>

export interface RateLimiter {
  /** Waits for a slot (FIFO within a process). Rejects when the signal aborts. */
  acquire(signal?: AbortSignal): Promise<Release>
  /** Adopts limits, e.g. those `/v1/me` reports. */
  updateLimits(limits: Partial<RateLimits>): Promise<void>
  /**
   * Learns from a response: an `X-RateLimit-Remaining` lower than this limiter's own count
   * explains means someone else spends the key, so the difference is booked as used.
   */
  observe(headers: HeaderBag): Promise<void | { planDisagrees: boolean }>
  /** Stops every holder of this key from starting requests for `ms` (after a 429). */
  pauseFor(ms: number): Promise<void>
  /**
   * Requests left today by the catalog's own count (the lowest `X-Quota-Remaining` the key's
   * answers carried this UTC day, see quota-today.ts), or null when none answered today.
   */
  quotaRemainingToday?(): Promise<number | null>
  /** Keeps the plan /v1/me reported for every holder of the key (the admin's "of N", the header check). */
  planSeen?(plan: PlanFigures): Promise<void>
  /** The plan /v1/me last reported to any holder of the key, or null. */
  plan?(): Promise<KnownPlan | null>
  /** The catalog's answers contradict the stored plan, or /v1/me was refused: its figures are stale until /v1/me answers again. */
  planStale?(): Promise<void>
  /** The catalog answered 429 daily_quota_exceeded: nothing is left today, and it enforces the quota. */
  quotaRefused?(): Promise<void>
  /** Whether the catalog refused a request for the daily quota on the current UTC day. */
  quotaRefusedToday?(): Promise<boolean>
  readonly limits: RateLimits
}

export const DEFAULT_LIMITS: RateLimits = { requestsPerMinute: 60, maxConcurrent: 3 }
/** The server counts a strict sliding 60-s window. */
export const WINDOW_MS = 60_000
/**
 * A finished request stays in the window until 60 s + this margin after its response: the
 * server stamped it earlier than that, so the client never counts it out too soon.
 */
export const WINDOW_MARGIN_MS = 250

export function headerValue(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()]
  return Array.isArray(value) ? value[0] : value
}

export function remainingFromHeaders(headers: HeaderBag): number | null {
  const raw = headerValue(headers, "x-ratelimit-remaining")
  if (raw === undefined || !/^\s*[0-9]+\s*$/.test(raw)) return null
  return Number(raw)
}

/**
 * Limits adopted from `/v1/me` are capped here: an account (or a host impersonating the API)
 * claiming more must not make the client go faster than it was configured for. The default
 * ceiling is DEFAULT_LIMITS, raised by limits a limiter was explicitly built with or by an
 * explicit `ceiling` option (tests and benchmarks against a sandbox with raised limits).
 */
export function limitCeiling(initial: Partial<RateLimits>, ceiling: Partial<RateLimits> | undefined): RateLimits {
  if (ceiling) return sanitizeLimits(DEFAULT_LIMITS, ceiling)
  const configured = sanitizeLimits(DEFAULT_LIMITS, initial)
  return {
    requestsPerMinute: Math.max(DEFAULT_LIMITS.requestsPerMinute, configured.requestsPerMinute),
    maxConcurrent: Math.max(DEFAULT_LIMITS.maxConcurrent, configured.maxConcurrent),
  }
}

export function clampLimits(limits: RateLimits, ceiling: RateLimits): RateLimits {
  return {
    requestsPerMinute: Math.min(limits.requestsPerMinute, ceiling.requestsPerMinute),
    maxConcurrent: Math.min(limits.maxConcurrent, ceiling.maxConcurrent),
  }
}

export function sanitizeLimits(current: RateLimits, next: Partial<RateLimits>): RateLimits {
  const pick = (value: number | undefined, fallback: number) => (value !== undefined && Number.isSafeInteger(value) && value >= 1 ? value : fallback)
  return {
    requestsPerMinute: pick(next.requestsPerMinute, current.requestsPerMinute),
    maxConcurrent: pick(next.maxConcurrent, current.maxConcurrent),
  }
}

/** Emission interval of the pacing: requests are spread evenly, at most one burst of `maxConcurrent`. */
export function emissionIntervalMs(limits: RateLimits): number {
  return WINDOW_MS / limits.requestsPerMinute
}
