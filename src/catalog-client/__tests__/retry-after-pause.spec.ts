// A 429 whose Retry-After is beyond the client's ceiling is thrown, not waited out, but the
// key's limiter is still paused so every other holder of the key holds off too.
import http from "node:http"
import type { AddressInfo } from "node:net"
import { AbortedError, CatalogClient, MemoryRateLimiter, RateLimitedError } from "../index"

jest.setTimeout(20_000)

describe("Retry-After beyond the ceiling", () => {
  let server: http.Server
  let baseUrl: string
  let calls = 0

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      calls++
      res.writeHead(429, { "content-type": "application/json", "retry-after": "3600" })
      res.end(JSON.stringify({ error: { code: "rate_limited", message: "Too many requests" } }))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it("throws at once, pauses the shared limiter and says when to try again", async () => {
    const shared = new MemoryRateLimiter()
    const client = new CatalogClient({ baseUrl, apiKey: "k", limiter: shared, discoverLimits: false })
    const before = Date.now()
    await expect(client.getProduct(1)).rejects.toBeInstanceOf(RateLimitedError)
    expect(calls).toBe(1)
    expect(client.retryNotBefore).toBeGreaterThanOrEqual(before + 3600_000)
    // Another client on the same key (same limiter) may not start a request now.
    await expect(shared.acquire(AbortSignal.timeout(200))).rejects.toBeInstanceOf(AbortedError)
    await client.close()
  })
})
