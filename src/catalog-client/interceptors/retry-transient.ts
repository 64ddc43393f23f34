// Retries with backoff: connection errors, timeouts and truncated bodies, and 5xx answers
// (then at least their Retry-After, never past the ceiling). One budget for all of them.
import { sleep } from "../abort"
import type { CatalogApiError } from "../errors"
import { headerValue } from "../rate-limiter"
import { backoffDelayMs, parseRetryAfterMs, type ResolvedRetryOptions } from "../retry-policy"
import type { CatalogLogger } from "../logger"
import type { Interceptor, RawResponse } from "./compose"
import { TransientFailure } from "./failures"

export function retryTransient(retry: ResolvedRetryOptions, apiErrorOf: (response: RawResponse) => CatalogApiError, logger?: CatalogLogger): Interceptor {
  return (next) => async (call) => {
    for (;;) {
      let response: RawResponse
      try {
        response = await next(call)
      } catch (error) {
        if (!(error instanceof TransientFailure)) throw error
        if (call.budget.retries >= retry.maxRetries) throw error.toApiError(call.logPath, call.budget.retries + 1)
        const delay = backoffDelayMs(++call.budget.retries, retry)
        logger?.warn?.("catalog request failed; retrying", {
          path: call.logPath,
          error: error.code,
          retry: call.budget.retries,
          delay_ms: delay,
        })
        await sleep(delay, call.signal)
        continue
      }
      if (response.status < 500 || call.budget.retries >= retry.maxRetries) return response
      const retryAfter = parseRetryAfterMs(headerValue(response.headers, "retry-after"))
      const delay = Math.min(Math.max(backoffDelayMs(++call.budget.retries, retry), retryAfter ?? 0), retry.retryAfterCeilingMs)
      logger?.warn?.("catalog API server error; retrying", {
        path: call.logPath,
        status: response.status,
        retry: call.budget.retries,
        delay_ms: delay,
        request_id: apiErrorOf(response).requestId,
      })
      await sleep(delay, call.signal)
    }
  }
}
