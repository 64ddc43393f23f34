// A 429 is waited out (Retry-After, else backoff) and the whole key pauses meanwhile, so no
// other holder starts a request early. Past the ceiling, or after too many waits, the 429 goes
// back to the caller: the pause still applies and the retry time is remembered.
import { sleep } from "../abort"
import type { CatalogApiError } from "../errors"
import { headerValue, type RateLimiter } from "../rate-limiter"
import { backoffDelayMs, parseRetryAfterMs, type ResolvedRetryOptions } from "../retry-policy"
import type { CatalogLogger } from "../logger"
import type { Interceptor, RawResponse } from "./compose"

export interface RateLimitWaitOptions {
  retry: ResolvedRetryOptions
  limiter: RateLimiter
  apiErrorOf: (response: RawResponse) => CatalogApiError
  /** Told when a 429 is given back: the time (ms since epoch) the API said to try again. */
  onGiveUp: (notBefore: number) => void
  logger?: CatalogLogger
}

export function waitOutRateLimits(options: RateLimitWaitOptions): Interceptor {
  const { retry, limiter, apiErrorOf, onGiveUp, logger } = options
  return (next) => async (call) => {
    for (;;) {
      const response = await next(call)
      if (response.status !== 429) return response
      const apiError = apiErrorOf(response)
      const waitMs = parseRetryAfterMs(headerValue(response.headers, "retry-after"))
      const effectiveWait = waitMs ?? backoffDelayMs(call.budget.rateLimitWaits + 1, retry)
      // The daily quota is this key's own: other holders are not paused for it.
      const pauseKey = () => (apiError.code !== "daily_quota_exceeded" ? limiter.pauseFor(effectiveWait).catch(() => {}) : undefined)
      if (effectiveWait > retry.retryAfterCeilingMs || call.budget.rateLimitWaits >= retry.maxRateLimitWaits) {
        // Not waited out here, but every other holder of the key must still hold off.
        await pauseKey()
        onGiveUp(Date.now() + effectiveWait)
        return response
      }
      call.budget.rateLimitWaits++
      logger?.warn?.("catalog API answered 429; waiting Retry-After", {
        path: call.logPath,
        code: apiError.code,
        wait_ms: effectiveWait,
        request_id: apiError.requestId,
      })
      await pauseKey()
      await sleep(effectiveWait, call.signal)
    }
  }
}
