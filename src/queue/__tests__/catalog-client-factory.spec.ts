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
