import { backoffDelayMs, parseRetryAfterMs, resolveRetryOptions } from "../retry-policy"

describe("retry policy", () => {
  it("reads Retry-After as whole seconds, however long, or as an HTTP date", () => {
    expect(parseRetryAfterMs("7")).toBe(7000)
    expect(parseRetryAfterMs("86400")).toBe(86_400_000)
    const now = Date.parse("2026-11-21T00:00:00Z")
    expect(parseRetryAfterMs("Sat, 21 Nov 2026 00:00:30 GMT", now)).toBe(30_000)
    expect(parseRetryAfterMs(undefined)).toBeNull()
    expect(parseRetryAfterMs("soon")).toBeNull()
  })

  it("backs off exponentially with jitter, capped", () => {
    const options = resolveRetryOptions({ baseDelayMs: 100, maxDelayMs: 1000 })
    expect(backoffDelayMs(1, options, () => 0)).toBe(50)
    expect(backoffDelayMs(1, options, () => 1)).toBe(100)
    expect(backoffDelayMs(3, options, () => 1)).toBe(400)
    expect(backoffDelayMs(10, options, () => 1)).toBe(1000)
    expect(backoffDelayMs(10, options, () => 0)).toBe(500)
  })
})
