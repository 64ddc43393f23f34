// The request parts on their own, with a fake `send` (the HTTP behaviour they add up to is
// covered over real loopback HTTP by client-errors, retry-after-pause and slot-hold).
import { AbortedError, CatalogApiError, NetworkError } from "../errors"
import { compose, type CatalogCall, type RawResponse, type Send } from "../interceptors/compose"
import { TransientFailure } from "../interceptors/failures"
import { HOLD_AFTER_TIMEOUT_MS, holdLimiterSlot } from "../interceptors/limiter-slot"
import { retryTransient } from "../interceptors/retry-transient"
import type { RateLimiter, ReleaseOptions } from "../rate-limiter"
import { resolveRetryOptions } from "../retry-policy"

const call = (): CatalogCall => ({
  url: "http://127.0.0.1:1/v1/me",
  logPath: "/v1/me",
  headers: {},
  signal: new AbortController().signal,
  budget: { retries: 0, rateLimitWaits: 0 },
})
const answer = (status: number): RawResponse => ({ status, headers: {}, text: "{}", requestId: null })
const retry = resolveRetryOptions({ maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 })
const apiErrorOf = () => new CatalogApiError("x", { code: "internal_error", status: 500, requestId: null })

/** A send that answers from a script: an Error is thrown, a number is a status. */
function scripted(steps: (Error | number)[]): Send & { calls: number } {
  const send = Object.assign(
    async () => {
      const step = steps[send.calls++]
      if (step instanceof Error) throw step
      return answer(step)
    },
    { calls: 0 }
  )
  return send
}

describe("request parts", () => {
  it("compose runs the first part outermost", async () => {
    const seen: string[] = []
    const part =
      (name: string) =>
      (next: Send): Send =>
      async (c) => {
        seen.push(`${name} in`)
        const r = await next(c)
        seen.push(`${name} out`)
        return r
      }
    await compose(part("a"), part("b"))(async () => answer(200))(call())
    expect(seen).toEqual(["a in", "b in", "b out", "a out"])
  })

  it("retryTransient spends one budget on failures and 5xx, then gives the last answer or error", async () => {
    const flaky = scripted([new TransientFailure("network", "ECONNRESET", "reset"), 503, 200])
    const c = call()
    expect((await retryTransient(retry, apiErrorOf)(flaky)(c)).status).toBe(200)
    expect(c.budget.retries).toBe(2)

    const down = scripted([503, 503, 503, 503])
    expect((await retryTransient(retry, apiErrorOf)(down)(call())).status).toBe(503)
    expect(down.calls).toBe(3)

    const broken = scripted([503, 503, new TransientFailure("network", "ECONNRESET", "reset")])
    await expect(retryTransient(retry, apiErrorOf)(broken)(call())).rejects.toThrow(NetworkError)
    await expect(retryTransient(retry, apiErrorOf)(scripted([new TypeError("bug")]))(call())).rejects.toThrow(TypeError)
  })

  it("holdLimiterSlot releases once per attempt, holding the slot after a timeout or abort only", async () => {
    const releases: (ReleaseOptions | undefined)[] = []
    const limiter = { acquire: async () => (options?: ReleaseOptions) => void releases.push(options) } as unknown as RateLimiter
    const slot = holdLimiterSlot(limiter)
    await slot(scripted([200]))(call())
    await expect(slot(scripted([new TransientFailure("timeout", "UND_ERR_HEADERS_TIMEOUT", "t")]))(call())).rejects.toThrow()
    await expect(slot(scripted([new TransientFailure("network", "ECONNRESET", "r")]))(call())).rejects.toThrow()
    await expect(slot(scripted([new AbortedError()]))(call())).rejects.toThrow(AbortedError)
    expect(releases).toEqual([undefined, { holdMs: HOLD_AFTER_TIMEOUT_MS }, { holdMs: 0 }, { holdMs: HOLD_AFTER_TIMEOUT_MS }])
  })
})
