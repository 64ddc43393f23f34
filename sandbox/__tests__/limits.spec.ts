// Section 8 limits and section 2.3 usage counting.

import { startSandbox, type Sandbox } from "../server"
import { control, expectError, get } from "./http"

let sb: Sandbox
afterEach(async () => sb?.close())

describe("requests per minute", () => {
  it("the request over the limit is 429 rate_limited with Retry-After, and is not counted", async () => {
    sb = await startSandbox({ products: 20, rpm: 5, concurrency: 3 })
    const remaining: number[] = []
    for (let i = 0; i < 5; i++) {
      const result = await get(sb.baseUrl, "/v1/products?limit=1", { key: sb.apiKey })
      expect(result.status).toBe(200)
      remaining.push(Number(result.headers.get("x-ratelimit-remaining")))
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0])
    const limited = await get(sb.baseUrl, "/v1/products?limit=1", { key: sb.apiKey })
    expectError(limited, 429, "rate_limited")
    const retryAfter = Number(limited.headers.get("retry-after"))
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0")
    // 429s count neither in the window nor in the daily quota.
    await get(sb.baseUrl, "/v1/products?limit=1", { key: sb.apiKey })
    await control(sb.controlUrl, "/reset-limits")
    await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    const me = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    expect(me.json.data.usage.requests_today).toBe(2)
    expect(me.headers.get("x-ratelimit-remaining")).toBe("3")
  })

  it("slots free up as the 60 s window slides (fake clock)", async () => {
    let now = Date.parse("2026-03-01T10:00:00Z")
    sb = await startSandbox({ products: 5, rpm: 2, now: () => now })
    await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    now += 20_000
    await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    const limited = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    expect(limited.status).toBe(429)
    expect(limited.headers.get("retry-after")).toBe("40")
    now += 40_000
    expect((await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })).status).toBe(200)
  })

  it("is per key: a re-issued key starts a fresh window", async () => {
    sb = await startSandbox({ products: 5, rpm: 1 })
    expect((await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })).status).toBe(200)
    expect((await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })).status).toBe(429)
    const { api_key } = await control(sb.controlUrl, "/revoke-key")
    expect((await get(sb.baseUrl, "/v1/me", { key: api_key })).status).toBe(200)
  })

  it("/limits changes the limits at run time, and /v1/me reports them", async () => {
    sb = await startSandbox({ products: 5 })
    await control(sb.controlUrl, "/limits", { rpm: 7, concurrency: 2, daily_quota: 99 })
    const me = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    expect(me.json.data.limits).toMatchObject({ requests_per_minute: 7, max_concurrent: 2, requests_per_day: 99 })
    expect(me.headers.get("x-ratelimit-remaining")).toBe("6")
    expect(me.headers.get("x-quota-remaining")).toBe("98")
  })
})

describe("concurrency", () => {
  it("a 4th request in flight is 429 rate_limited with Retry-After", async () => {
    sb = await startSandbox({ products: 5, rpm: 1000, concurrency: 3, latencyMs: 400 })
    const results = await Promise.all(Array.from({ length: 4 }, () => get(sb.baseUrl, "/v1/me", { key: sb.apiKey })))
    const statuses = results.map((r) => r.status).sort()
    expect(statuses).toEqual([200, 200, 200, 429])
    const limited = results.find((r) => r.status === 429)!
    expectError(limited, 429, "rate_limited")
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    const stats = await control(sb.controlUrl, "/stats", undefined, "GET")
    expect(stats.rate_limited.concurrency).toBe(1)
    // Once they finish, slots are free again.
    const again = await Promise.all(Array.from({ length: 3 }, () => get(sb.baseUrl, "/v1/me", { key: sb.apiKey })))
    expect(again.map((r) => r.status)).toEqual([200, 200, 200])
  })

  it("a client that disconnects frees its slot", async () => {
    sb = await startSandbox({ products: 5, rpm: 1000, concurrency: 1, latencyMs: 300 })
    const controller = new AbortController()
    const aborted = fetch(sb.baseUrl + "/v1/me", { headers: { "X-API-Key": sb.apiKey }, signal: controller.signal }).catch(() => null)
    await new Promise((r) => setTimeout(r, 50))
    controller.abort()
    await aborted
    await new Promise((r) => setTimeout(r, 50))
    expect((await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })).status).toBe(200)
  })
})

describe("daily quota", () => {
  it("is counted but not enforced by default: X-Quota-Remaining reaches 0 and requests still pass", async () => {
    sb = await startSandbox({ products: 5, dailyQuota: 3 })
    const remaining: string[] = []
    for (let i = 0; i < 5; i++) {
      const result = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
      expect(result.status).toBe(200)
      remaining.push(result.headers.get("x-quota-remaining")!)
    }
    expect(remaining).toEqual(["2", "1", "0", "0", "0"])
    const me = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    expect(me.json.data.usage).toEqual({ requests_today: 6, quota_enforced: false })
  })

  it("with --quota-enforced, the request over the quota is 429 daily_quota_exceeded with Retry-After to 00:00 UTC", async () => {
    const now = Date.parse("2026-03-01T23:59:00Z")
    sb = await startSandbox({ products: 5, dailyQuota: 2, quotaEnforced: true, now: () => now })
    expect((await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })).json.data.usage.quota_enforced).toBe(true)
    expect((await get(sb.baseUrl, "/v1/products?limit=1", { key: sb.apiKey })).status).toBe(200)
    const over = await get(sb.baseUrl, "/v1/products?limit=1", { key: sb.apiKey })
    expectError(over, 429, "daily_quota_exceeded")
    expect(over.headers.get("retry-after")).toBe("60")
    expect(over.headers.get("x-quota-remaining")).toBe("0")
    // Not counted in the per-minute window either.
    expect(over.headers.get("x-ratelimit-remaining")).toBe("58")
  })

  it("resets at 00:00 UTC", async () => {
    let now = Date.parse("2026-03-01T23:59:30Z")
    sb = await startSandbox({ products: 5, dailyQuota: 1, quotaEnforced: true, rpm: 1000, now: () => now })
    await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    expect((await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })).status).toBe(429)
    now += 31_000
    const next = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    expect(next.status).toBe(200)
    expect(next.json.data.usage.requests_today).toBe(1)
  })

  it("304 answers are not counted in usage.requests_today", async () => {
    sb = await startSandbox({ products: 5 })
    const first = await get(sb.baseUrl, "/v1/categories", { key: sb.apiKey })
    const etag = first.headers.get("etag")!
    for (let i = 0; i < 3; i++) {
      const again = await get(sb.baseUrl, "/v1/categories", { key: sb.apiKey, headers: { "If-None-Match": etag } })
      expect(again.status).toBe(304)
      expect(again.headers.get("x-quota-remaining")).toBe("9999")
    }
    const me = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    expect(me.json.data.usage.requests_today).toBe(2)
  })

  it("401 answers are not counted; 422 and 404 are", async () => {
    sb = await startSandbox({ products: 5 })
    await get(sb.baseUrl, "/v1/me", { key: "wrong" })
    await get(sb.baseUrl, "/v1/products?limit=0", { key: sb.apiKey })
    await get(sb.baseUrl, "/v1/products/123456789012", { key: sb.apiKey })
    expect((await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })).json.data.usage.requests_today).toBe(3)
  })
})

describe("403 and the limits", () => {
  it("403 answers count in the daily quota but not in the per-minute window", async () => {
    sb = await startSandbox({ products: 5, rpm: 3 })
    await control(sb.controlUrl, "/plan", { plan: "Basic", expires_at: null })
    for (let i = 0; i < 4; i++) expect((await get(sb.baseUrl, "/v1/products", { key: sb.apiKey })).status).toBe(403)
    const me = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    expect(me.json.data.usage.requests_today).toBe(5)
    expect(me.headers.get("x-ratelimit-remaining")).toBe("2")
  })
})

describe("slots free before the client sees the answer", () => {
  it("3 workers sending back-to-back requests never draw a concurrency 429 at concurrency 3", async () => {
    sb = await startSandbox({ products: 300, rpm: 100_000, concurrency: 3 })
    const worker = async () => {
      const statuses: number[] = []
      for (let i = 0; i < 30; i++) statuses.push((await get(sb.baseUrl, "/v1/products?limit=50", { key: sb.apiKey })).status)
      return statuses
    }
    const all = (await Promise.all([worker(), worker(), worker()])).flat()
    expect(all.filter((s) => s !== 200)).toEqual([])
  })
})
