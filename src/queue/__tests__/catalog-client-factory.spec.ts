// Without Redis (the runtime not started), clients of one key share one in-process limiter.
import Redis from "ioredis"
import { CatalogClientFactory, createCatalogClientFor } from "../catalog-client-factory"

const pricing = { price_calculation: "max" as const, markup_percent: null, discount_percent: null, old_price_markup_percent: null }
const settings = (apiKey: string, apiKeyHash: string | null, baseUrl = "http://127.0.0.1:9") => ({ baseUrl, apiKey, apiKeyHash, pricing })

describe("createCatalogClientFor without Redis", () => {
  it("gives every client of a key the same memory limiter, and other keys their own", async () => {
    const a = createCatalogClientFor(null, settings("key-a", "hash-a"))
    const b = createCatalogClientFor(null, settings("key-a", "hash-a"))
    const other = createCatalogClientFor(null, settings("key-b", "hash-b"))
    const unnamed = createCatalogClientFor(null, settings("key-c", null))
    const unnamedAgain = createCatalogClientFor(null, settings("key-c", null))
    try {
      expect(a.limiter).toBe(b.limiter)
      expect(other.limiter).not.toBe(a.limiter)
      expect(unnamed.limiter).toBe(unnamedAgain.limiter)
      // The limit is the key's, whatever the host is called (issue #10: another name for the
      // same host used to get a limiter of its own) and whatever hash the settings row holds.
      const elsewhere = createCatalogClientFor(null, settings("key-a", "hash-a", "http://localhost:9"))
      const otherName = createCatalogClientFor(null, settings("key-a", "stale-hash", "http://127.0.0.1:8"))
      expect(elsewhere.limiter).toBe(a.limiter)
      expect(otherName.limiter).toBe(a.limiter)
      await Promise.all([elsewhere.close(), otherName.close()])
    } finally {
      await Promise.all([a, b, other, unnamed, unnamedAgain].map((c) => c.close()))
    }
  })
})

describe("limits discovery shared per key", () => {
  it("without Redis: due until a client of the key adopted limits, then not for the interval", async () => {
    const factory = new CatalogClientFactory({ options: {}, env: { CATALOG_SYNC_LIMITS_MAX_AGE_MS: "200" } })
    const discovery = factory.limitsDiscoveryFor("key-discovery")!
    expect(await discovery.due()).toBe(true)
    await discovery.adopted()
    expect(await factory.limitsDiscoveryFor("key-discovery")!.due()).toBe(false)
    expect(await factory.limitsDiscoveryFor("key-other")!.due()).toBe(true)
    await new Promise((r) => setTimeout(r, 250))
    expect(await discovery.due()).toBe(true)
  })

  it("with Redis: the marker is shared by every factory on the prefix and expires with the interval", async () => {
    const redis = new Redis("redis://127.0.0.1:6379")
    const prefix = `mcs-test-limits-${process.pid}-${Date.now()}`
    const make = () => new CatalogClientFactory({ options: {}, env: { CATALOG_SYNC_LIMITS_MAX_AGE_MS: "300" }, redis: () => redis, prefix })
    try {
      expect(await make().limitsDiscoveryFor("key-r")!.due()).toBe(true)
      await make().limitsDiscoveryFor("key-r")!.adopted()
      expect(await make().limitsDiscoveryFor("key-r")!.due()).toBe(false)
      await new Promise((r) => setTimeout(r, 400))
      expect(await make().limitsDiscoveryFor("key-r")!.due()).toBe(true)
    } finally {
      const keys = await redis.keys(`${prefix}:*`)
      if (keys.length) await redis.del(...keys)
      redis.disconnect()
    }
  })

  it("0 turns sharing off (every client asks /v1/me)", async () => {
    const factory = new CatalogClientFactory({ options: {}, env: { CATALOG_SYNC_LIMITS_MAX_AGE_MS: "0" } })
    expect(factory.limitsDiscoveryFor("key-zero")).toBeUndefined()
  })
})
