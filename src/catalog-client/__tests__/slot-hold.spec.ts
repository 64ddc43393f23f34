// A request given up on (timeout) keeps its slot a while, since the server may still count it;
// a Redis lease held long keeps the in-flight set alive.
import http from "node:http"
import type { AddressInfo } from "node:net"
import { randomUUID } from "node:crypto"
import Redis from "ioredis"
import { CatalogClient, MemoryRateLimiter, RedisRateLimiter, TimeoutError } from "../index"

jest.setTimeout(20_000)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("slot held after a timeout", () => {
  it("stays taken for seconds, not one", async () => {
    const server = http.createServer(() => {
      // never answers
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const limiter = new MemoryRateLimiter()
    const client = new CatalogClient({
      baseUrl,
      apiKey: "k",
      limiter,
      discoverLimits: false,
      timeouts: { headersMs: 150 },
      retry: { maxRetries: 0 },
    })
    try {
      await expect(client.getProduct(1)).rejects.toBeInstanceOf(TimeoutError)
      await sleep(2000)
      expect(limiter.inFlight).toBe(1)
    } finally {
      await client.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe("RedisRateLimiter lease renewal", () => {
  it("refreshes the in-flight set's expiry too", async () => {
    const redis = new Redis({ host: "127.0.0.1", port: 6379, maxRetriesPerRequest: 2 })
    const prefix = `test:catalog-client:${randomUUID()}`
    try {
      const limiter = new RedisRateLimiter({ redis, keyId: "k", prefix, leaseTtlMs: 3000 })
      const release = await limiter.acquire()
      const inflight = `${prefix}:{k}:inflight`
      // As if the request had been in flight for almost the set's 120 s.
      await redis.pexpire(inflight, 1500)
      await sleep(1300) // a renewal runs every second
      expect(await redis.pttl(inflight)).toBeGreaterThan(60_000)
      release()
    } finally {
      const keys = await redis.keys(`${prefix}*`)
      if (keys.length) await redis.del(...keys)
      await redis.quit()
    }
  })
})
