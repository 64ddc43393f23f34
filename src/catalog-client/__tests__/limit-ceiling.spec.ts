// Limits adopted from /v1/me never exceed the ceiling (default 60/min, 3 at once): an account
// or a host impersonating the API cannot make the client go faster than configured.
import { randomUUID } from "node:crypto"
import Redis from "ioredis"
import { AbortedError, CatalogClient, MemoryRateLimiter, RedisRateLimiter } from "../index"
import { sandbox, SANDBOX_CEILING } from "./sandbox-helpers"

jest.setTimeout(20_000)

describe("limit ceiling", () => {
  it("a limiter adopts at most the defaults unless built with higher limits or a ceiling", async () => {
    const plain = new MemoryRateLimiter()
    await plain.updateLimits({ requestsPerMinute: 100_000, maxConcurrent: 50 })
    expect(plain.limits).toEqual({ requestsPerMinute: 60, maxConcurrent: 3 })
    await plain.updateLimits({ requestsPerMinute: 20, maxConcurrent: 2 })
    expect(plain.limits).toEqual({ requestsPerMinute: 20, maxConcurrent: 2 })

    const raised = new MemoryRateLimiter({ ceiling: { requestsPerMinute: 6000 } })
    await raised.updateLimits({ requestsPerMinute: 100_000, maxConcurrent: 50 })
    expect(raised.limits).toEqual({ requestsPerMinute: 6000, maxConcurrent: 3 })

    const configured = new MemoryRateLimiter({ requestsPerMinute: 1000 })
    await configured.updateLimits({ requestsPerMinute: 100_000 })
    expect(configured.limits.requestsPerMinute).toBe(1000)
  })

  it("a client with the default limiter does not adopt a sandbox's raised limits", async () => {
    const sb = await sandbox({ products: 5, rpm: 100_000, concurrency: 50 })
    try {
      const plain = new CatalogClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey })
      const info = await plain.me()
      expect(info.limits).toMatchObject({ requests_per_minute: 100_000, max_concurrent: 50 })
      expect(plain.limiter.limits).toEqual({ requestsPerMinute: 60, maxConcurrent: 3 })
      await plain.close()

      const raised = new CatalogClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, limitCeiling: SANDBOX_CEILING })
      await raised.me()
      expect(raised.limiter.limits).toEqual({ requestsPerMinute: 100_000, maxConcurrent: 50 })
      await raised.close()
    } finally {
      await sb.close()
    }
  })

  it("limits another holder wrote to Redis are capped by this holder's ceiling", async () => {
    const redis = new Redis({ host: "127.0.0.1", port: 6379, maxRetriesPerRequest: 2 })
    const prefix = `test:catalog-client:${randomUUID()}`
    try {
      const generous = new RedisRateLimiter({ redis, keyId: "k", prefix, ceiling: { requestsPerMinute: 6000, maxConcurrent: 50 } })
      await generous.updateLimits({ requestsPerMinute: 6000, maxConcurrent: 50 })
      expect(generous.limits).toEqual({ requestsPerMinute: 6000, maxConcurrent: 50 })

      const plain = new RedisRateLimiter({ redis, keyId: "k", prefix })
      await plain.updateLimits({ requestsPerMinute: 6000, maxConcurrent: 50 })
      expect(plain.limits).toEqual({ requestsPerMinute: 60, maxConcurrent: 3 })
      const held = [await plain.acquire(), await plain.acquire(), await plain.acquire()]
      await expect(plain.acquire(AbortSignal.timeout(300))).rejects.toBeInstanceOf(AbortedError)
      for (const release of held) release()
    } finally {
      const keys = await redis.keys(`${prefix}*`)
      if (keys.length) await redis.del(...keys)
      await redis.quit()
    }
  })
})
