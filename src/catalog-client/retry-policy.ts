// When and how long to wait before trying a request again.

export interface RetryOptions {
  /** Retries after 5xx, connection errors, timeouts and truncated bodies. Default 6. */
  maxRetries?: number
  /** First backoff delay; doubles each retry. Default 500 ms. */
  baseDelayMs?: number
  /** Cap of one backoff delay. Default 30 s. */
  maxDelayMs?: number
  /** A 429 whose Retry-After is longer than this is thrown, not waited. Default 15 min. */
  retryAfterCeilingMs?: number
  /** How many 429 answers one call waits through before giving up. Default 20. */
  maxRateLimitWaits?: number
}

export type ResolvedRetryOptions = Required<RetryOptions>

export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  return {
    maxRetries: options.maxRetries ?? 6,
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 30_000,
    retryAfterCeilingMs: options.retryAfterCeilingMs ?? 15 * 60_000,
    maxRateLimitWaits: options.maxRateLimitWaits ?? 20,
  }
}

/** Exponential backoff with "equal jitter": half fixed, half random, so retries spread out. */
export function backoffDelayMs(retry: number, options: ResolvedRetryOptions, random: () => number = Math.random): number {
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1))
  return Math.round(exponential / 2 + random() * (exponential / 2))
}

/**
 * Retry-After in ms: delta-seconds (the whole value, however long) or an HTTP date.
 * Null when absent or unreadable.
 */
export function parseRetryAfterMs(value: string | undefined, now: number = Date.now()): number | null {
  if (value === undefined) return null
  const trimmed = value.trim()
  if (/^[0-9]+$/.test(trimmed)) return Number(trimmed) * 1000
  if (/^[0-9]+\.[0-9]+$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000)
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return null
  return Math.max(0, date - now)
}
