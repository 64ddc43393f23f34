// Without Redis (the runtime not started), clients of one key share one in-process limiter.
import { createCatalogClientFor } from "../catalog-client-factory"

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
      // A check against another host never shares the key's limiter.
      const elsewhere = createCatalogClientFor(null, settings("key-a", "hash-a", "http://127.0.0.1:8"), { privateLimiter: true })
      expect(elsewhere.limiter).not.toBe(a.limiter)
      await elsewhere.close()
    } finally {
      await Promise.all([a, b, other, unnamed, unnamedAgain].map((c) => c.close()))
    }
  })
})
