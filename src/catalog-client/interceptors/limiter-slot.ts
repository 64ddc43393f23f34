// Every attempt takes a limiter slot (60/min, 3 at once per key) and gives it back once the
// body is read. After a timeout or abort the slot stays taken a while longer.
import { abortReason } from "../abort"
import { AbortedError } from "../errors"
import type { RateLimiter } from "../rate-limiter"
import type { Interceptor } from "./compose"
import { TransientFailure } from "./failures"

/**
 * How long a slot stays taken after a timeout or abort: the server may still be serving (and
 * counting) the request, so starting another at once could make one too many in flight.
 */
export const HOLD_AFTER_TIMEOUT_MS = 5000

function holdAfter(error: unknown): number {
  if (error instanceof AbortedError) return HOLD_AFTER_TIMEOUT_MS
  return error instanceof TransientFailure && error.kind === "timeout" ? HOLD_AFTER_TIMEOUT_MS : 0
}

export function holdLimiterSlot(limiter: RateLimiter): Interceptor {
  return (next) => async (call) => {
    if (call.signal.aborted) throw abortReason(call.signal)
    const release = await limiter.acquire(call.signal)
    try {
      const response = await next(call)
      release()
      return response
    } catch (error) {
      release({ holdMs: holdAfter(error) })
      throw error
    }
  }
}
