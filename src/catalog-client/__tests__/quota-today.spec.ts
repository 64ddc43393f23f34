// Requests today by the catalog's own count: the key's limiter keeps the remaining quota the
// answers carried, so the figure equals the sandbox's count of the key's requests, whatever
// 304s, other clients of the key and out-of-order answers did.
import { randomUUID } from "node:crypto"
import Redis from "ioredis"
import { CatalogClient, MemoryRateLimiter, RedisRateLimiter } from "../index"
import type { RateLimiter } from "../rate-limiter"
import { nextQuotaRemaining, planDisagrees, utcDay } from "../quota-today"
import { quotaToday, requestsToday } from "../../sync/requests-today"
import { DailyQuotaExceededError } from "../errors"
import { control, sandbox, SANDBOX_CEILING } from "./sandbox-helpers"

jest.setTimeout(30_000)

describe("nextQuotaRemaining", () => {
  it("keeps the day's lowest, unless a jump beyond the requests in flight tells of a reset", () => {
    expect(nextQuotaRemaining(null, 5, 90, 3)).toBe(90)
    expect(nextQuotaRemaining({ day: 5, remaining: 90 }, 5, 88, 3)).toBe(88)
    // An answer overtaken by a later one: the lower figure stands.
    expect(nextQuotaRemaining({ day: 5, remaining: 88 }, 5, 90, 3)).toBe(88)
    expect(nextQuotaRemaining({ day: 5, remaining: 88 }, 5, 100, 3)).toBe(100)
    // A new day starts over.
    expect(nextQuotaRemaining({ day: 5, remaining: 10 }, 6, 95, 3)).toBe(95)
    expect(utcDay(Date.parse("2026-11-23T23:59:59Z"))).toBe(utcDay(Date.parse("2026-11-23T00:00:00Z")))
    expect(utcDay(Date.parse("2026-11-24T00:00:00Z"))).toBe(utcDay(Date.parse("2026-11-23T00:00:00Z")) + 1)
  })
})

describe("planDisagrees", () => {
  const plan = { requestsPerDay: 10_000, requestsPerMinute: 60 }
  const now = Date.parse("2026-11-23T12:00:00Z")
  const base = { plan, kept: { remaining: 9_950, at: now - 30_000 }, quotaRemaining: 9_948, rateRemaining: 55, now, maxConcurrent: 3 }
  it("agrees with answers the plan explains", () => {
    expect(planDisagrees(base)).toBe(false)
    // As fast as the plan's per-minute limit lets the account spend, over two minutes.
    expect(planDisagrees({ ...base, kept: { remaining: 9_950, at: now - 120_000 }, quotaRemaining: 9_950 - 123 })).toBe(false)
    // No plan read yet, or yesterday's figure: nothing to compare with.
    expect(planDisagrees({ ...base, plan: null, quotaRemaining: 20_000 })).toBe(false)
    expect(planDisagrees({ ...base, kept: { remaining: 9_950, at: now - 13 * 3_600_000 }, quotaRemaining: 11 })).toBe(false)
  })
  it("disagrees when the quota or the rate changed at the catalog", () => {
    // Lowered to 70: 11 left where 9,950 were a moment ago.
    expect(planDisagrees({ ...base, quotaRemaining: 11 })).toBe(true)
    // Raised: more left today than the stored daily limit, or this minute than the stored rate.
    expect(planDisagrees({ ...base, kept: null, quotaRemaining: 10_001 })).toBe(true)
    expect(planDisagrees({ ...base, rateRemaining: 100 })).toBe(true)
  })
})

const limiters: [string, () => { limiter: RateLimiter; close: () => Promise<void> }][] = [
  ["in memory", () => ({ limiter: new MemoryRateLimiter({ ceiling: SANDBOX_CEILING }), close: async () => undefined })],
  [
    "in Redis",
    () => {
      const redis = new Redis("redis://127.0.0.1:6379", { lazyConnect: false, maxRetriesPerRequest: 2 })
      return {
        limiter: new RedisRateLimiter({ redis, keyId: `quota-${randomUUID()}`, prefix: `mcs_test_quota_${process.pid}`, ceiling: SANDBOX_CEILING }),
        close: async () => void (await redis.quit()),
      }
    },
  ],
]

describe.each(limiters)("requests today from the key's limiter (%s)", (_name, make) => {
  it("equals the sandbox's own count of the key's requests", async () => {
    const sb = await sandbox({ products: 450 })
    const { limiter, close } = make()
    try {
      expect(await limiter.quotaRemainingToday!()).toBeNull()
      // A run's client and a status check share the key's limiter.
      const run = new CatalogClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, limiter, retry: { baseDelayMs: 10, maxDelayMs: 50 } })
      const status = new CatalogClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, limiter, adoptLimits: false })
      const account = await status.me()
      let pages = 0
      for await (const page of run.listProducts({})) pages += page.items.length ? 1 : 0
      expect(pages).toBeGreaterThanOrEqual(3)
      // A 304: the catalog does not count it.
      const categories = await run.getCategories()
      const again = await run.getCategories({ validators: { etag: categories.etag } })
      expect(again.notModified).toBe(true)
      // Three at once: their answers may arrive in any order.
      await Promise.all([run.getProduct(String(sb.state.catalog.all()[0].id)), run.getBrands(), status.me()])
      // Someone else spends the key through another limiter: the catalog counts it too, and the next answer tells.
      const other = new CatalogClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, limiter: new MemoryRateLimiter({ ceiling: SANDBOX_CEILING }) })
      await other.me()
      await other.getBrandModels()
      await other.close()
      await run.getBrands()

      const counted = sb.state.quota.usedToday(Date.now())
      const today = requestsToday(account.limits.requests_per_day, await limiter.quotaRemainingToday!())
      expect(today).toEqual({ used: counted, limit: account.limits.requests_per_day })
      // The figure the admin would have shown before (the /v1/me read at the start) was stale.
      expect(account.usage.requests_today).toBeLessThan(counted)
      await run.close()
      await status.close()
    } finally {
      await close()
      await sb.close()
    }
  })
})

describe.each(limiters)("a plan changed at the catalog (%s)", (_name, make) => {
  it("is read again from /v1/me as soon as an answer's quota contradicts it, lowered and raised", async () => {
    const sb = await sandbox({ products: 50 })
    const { limiter, close } = make()
    const client = new CatalogClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, limiter, retry: { baseDelayMs: 10, maxDelayMs: 50 } })
    try {
      await client.me()
      await client.getBrands()
      expect(await limiter.plan!()).toEqual({ requestsPerDay: 10_000, requestsPerMinute: 6000, quotaEnforced: false, stale: false })

      // The catalog lowers the daily quota: the next answer's X-Quota-Remaining cannot be 10,000 less what was used.
      await control(sb, "/limits", { daily_quota: 70 })
      await client.getBrands()
      await client.planRefresh
      expect(await limiter.plan!()).toEqual({ requestsPerDay: 70, requestsPerMinute: 6000, quotaEnforced: false, stale: false })
      expect(client.account?.limits.requests_per_day).toBe(70)
      await client.getBrands()
      expect(requestsToday((await limiter.plan!())!.requestsPerDay, await limiter.quotaRemainingToday!())).toEqual({
        used: sb.state.quota.usedToday(Date.now()),
        limit: 70,
      })

      // Raised again: more left today than 70 allows.
      await control(sb, "/limits", { daily_quota: 5000 })
      await client.getBrands()
      await client.planRefresh
      // At most one refresh a minute per client: a new client (the next run) sees it at once.
      const next = new CatalogClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, limiter, retry: { baseDelayMs: 10, maxDelayMs: 50 } })
      await next.getBrands()
      await next.planRefresh
      await next.close()
      expect((await limiter.plan!())!.requestsPerDay).toBe(5000)
    } finally {
      await client.close()
      await close()
      await sb.close()
    }
  })
})

describe.each(limiters)("quota figures the catalog's answers contradict (%s)", (_name, make) => {
  it("a 429 for the quota: refused today and enforced, the held limit stale until /v1/me tells it again", async () => {
    const sb = await sandbox({ products: 50 })
    const { limiter, close } = make()
    const retry = { baseDelayMs: 10, maxDelayMs: 50, maxRateLimitWaits: 0 }
    const client = new CatalogClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, limiter, retry })
    try {
      await client.me()
      await client.getBrands()
      expect(await limiter.quotaRefusedToday!()).toBe(false)
      expect(await limiter.plan!()).toMatchObject({ requestsPerDay: 10_000, quotaEnforced: false, stale: false })

      // The catalog lowers the quota to what is used and enforces it: the next request is refused.
      await control(sb, "/limits", { daily_quota: sb.state.quota.usedToday(Date.now()), quota_enforced: true })
      await expect(client.getBrands()).rejects.toBeInstanceOf(DailyQuotaExceededError)
      expect(await limiter.quotaRefusedToday!()).toBe(true)
      expect(await limiter.quotaRemainingToday!()).toBe(0)
      expect(await limiter.plan!()).toMatchObject({ requestsPerDay: 10_000, quotaEnforced: false, stale: true })
      // What the admin and the alerts read: spent and enforced, no old "10,000", no old "not enforced".
      const told = quotaToday({ plan: await limiter.plan!(), remaining: await limiter.quotaRemainingToday!(), refusedToday: true })
      expect(told).toEqual({ remaining: 0, used: null, limit: null, enforced: true, spent: true, stale: true })

      // /v1/me refused as well: still stale.
      await expect(client.me()).rejects.toBeTruthy()
      expect(await limiter.plan!()).toMatchObject({ stale: true })

      // The quota raised: the next run's client reads /v1/me again although limits were adopted a moment ago.
      await control(sb, "/limits", { daily_quota: 10_000 })
      const next = new CatalogClient({
        baseUrl: sb.baseUrl,
        apiKey: sb.apiKey,
        limiter,
        retry,
        limitsDiscovery: { due: async () => false, adopted: async () => undefined },
      })
      await next.getBrands()
      await next.close()
      expect(await limiter.plan!()).toEqual({ requestsPerDay: 10_000, requestsPerMinute: 6000, quotaEnforced: true, stale: false })
      // The answers tell quota left again: no longer "used up today", though a request was refused earlier today.
      const remaining = await limiter.quotaRemainingToday!()
      expect(remaining).toBeGreaterThan(9_000)
      const after = quotaToday({ plan: await limiter.plan!(), remaining, refusedToday: await limiter.quotaRefusedToday!() })
      expect(after).toMatchObject({ remaining, limit: 10_000, used: 10_000 - remaining!, enforced: true, spent: false, stale: false })
    } finally {
      await client.close()
      await close()
      await sb.close()
    }
  })

  it("a 429 for the minute's rate on /v1/me says nothing of the plan: it stays current", async () => {
    const sb = await sandbox({ products: 20 })
    const { limiter, close } = make()
    const retry = { baseDelayMs: 10, maxDelayMs: 50, maxRateLimitWaits: 0, maxRetries: 0 }
    const client = new CatalogClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, limiter, retry })
    try {
      await client.me()
      expect(await limiter.plan!()).toMatchObject({ stale: false })
      // The catalog's rate cut to what this minute used: the next /v1/me is refused with 429 rate_limited.
      await control(sb, "/limits", { rpm: 1 })
      const again = new CatalogClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, limiter, retry, discoverLimits: false })
      await expect(again.me()).rejects.toMatchObject({ status: 429, code: "rate_limited" })
      await again.close()
      expect(await limiter.plan!()).toMatchObject({ requestsPerDay: 10_000, stale: false })
    } finally {
      await client.close()
      await close()
      await sb.close()
    }
  })

  it("a refused key: the plan held for it is stale", async () => {
    const sb = await sandbox({ products: 20 })
    const { limiter, close } = make()
    const client = new CatalogClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, limiter, retry: { baseDelayMs: 10, maxDelayMs: 50, maxRateLimitWaits: 0 } })
    try {
      await client.me()
      expect(await limiter.plan!()).toMatchObject({ stale: false })
      const revoked = new CatalogClient({ baseUrl: sb.baseUrl, apiKey: `${sb.apiKey}-revoked`, limiter, retry: { maxRetries: 0 }, discoverLimits: false })
      await expect(revoked.getBrands()).rejects.toBeTruthy()
      await revoked.close()
      expect(await limiter.plan!()).toMatchObject({ stale: true })
    } finally {
      await client.close()
      await close()
      await sb.close()
    }
  })
})
