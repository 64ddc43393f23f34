import { RETRY_BACKOFF_MS, runRetryDelayMs } from "../catalog-sync-queue"
import { TransientRunFailure } from "../catalog-sync-worker"

describe("runRetryDelayMs (the run jobs' backoff)", () => {
  it("doubles per attempt", () => {
    expect(runRetryDelayMs(1, new Error("x"))).toBe(RETRY_BACKOFF_MS)
    expect(runRetryDelayMs(2, new TransientRunFailure("network_error"))).toBe(2 * RETRY_BACKOFF_MS)
  })

  it("waits at least the Retry-After of a 429 the run failed with", () => {
    const rateLimited = new TransientRunFailure("rate_limited", RETRY_BACKOFF_MS * 10 + 1)
    expect(runRetryDelayMs(1, rateLimited)).toBe(RETRY_BACKOFF_MS * 10 + 1)
    expect(runRetryDelayMs(2, new TransientRunFailure("rate_limited", 5))).toBe(2 * RETRY_BACKOFF_MS)
  })
})
