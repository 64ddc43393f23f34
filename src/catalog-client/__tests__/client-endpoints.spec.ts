// Every endpoint of the spec, over real loopback HTTP against the sandbox.
import type { Sandbox } from "../../../sandbox/server"
import { CatalogClient, NotFoundError, type ChangeItem, type ProductCard } from "../index"
import { clientFor, control, productIdsOnSale, sandbox } from "./sandbox-helpers"

// Generous limits for a shared 2-core machine; nothing here asserts on speed.
jest.setTimeout(30_000)

describe("CatalogClient endpoints", () => {
  let sb: Sandbox
  let client: CatalogClient

  beforeAll(async () => {
    sb = await sandbox({ products: 450 })
    client = clientFor(sb, { pricing: { price_calculation: "max", markup_percent: "30", discount_percent: "20" } })
  })
  afterAll(async () => {
    // A normal run never causes a 429.
    expect((await control(sb, "/stats")).rate_limited.total).toBe(0)
    await client.close()
    await sb.close()
  })

  it("me: plan, limits and usage, adopted by the limiter", async () => {
    const info = await client.me()
    expect(info.plan).toBe("Ultra")
    expect(info.limits).toMatchObject({ requests_per_minute: 6000, max_concurrent: 3, page_size_max: 200, stock_batch_max: 200 })
    expect(typeof info.usage.requests_today).toBe("number")
    expect(info.usage.quota_enforced).toBe(false)
    expect(client.limiter.limits).toEqual({ requestsPerMinute: 6000, maxConcurrent: 3 })
    expect(client.quota.quotaRemaining).not.toBeNull()
    expect(client.quota.rateLimitRemaining).not.toBeNull()
  })

  it("changes feed without cursor is the full export, every product once, ids above 2^53 exact", async () => {
    const seen: string[] = []
    let cursor: string | undefined
    let pages = 0
    for (;;) {
      const page = await client.getChangesPage({ cursor, limit: 200 })
      pages++
      expect(page.rejected).toEqual([])
      expect(typeof page.nextCursor).toBe("string")
      expect(page.pricing).toMatchObject({ price_calculation: "max", markup_percent: "30", discount_percent: "20" })
      for (const item of page.items) {
        expect(item.status).not.toBe("removed")
        seen.push(item.id)
      }
      cursor = page.nextCursor
      if (!page.hasMore) break
    }
    expect(pages).toBe(3)
    expect(seen.sort()).toEqual(productIdsOnSale(sb).sort())
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen).toContain("9223372036854775807")
    expect(seen).toContain("9007199254740993")

    // Then the feed continues from the stored cursor: changes and removals only.
    await control(sb, "/mutate", { count: 5, kinds: ["price"] })
    await control(sb, "/mutate", { remove_ids: ["9007199254740993"], count: 0 })
    const changes = await client.getChangesPage({ cursor, limit: 200 })
    const removed = changes.items.filter((i: ChangeItem) => i.status === "removed")
    expect(removed).toEqual([{ status: "removed", id: "9007199254740993" }])
    expect(changes.items.filter((i) => i.status !== "removed").length).toBeGreaterThanOrEqual(1)
    expect(changes.hasMore).toBe(false)
    const empty = await client.getChangesPage({ cursor: changes.nextCursor })
    expect(empty.items).toEqual([])
    expect(typeof empty.nextCursor).toBe("string")

    await expect(client.getProduct("9007199254740993")).rejects.toBeInstanceOf(NotFoundError)
  })

  it("listProducts pages through the catalog with filters", async () => {
    const all: ProductCard[] = []
    for await (const page of client.listProducts({ limit: 150 })) {
      expect(page.rejected).toEqual([])
      all.push(...page.items)
    }
    expect(all.map((c) => c.id).sort()).toEqual(productIdsOnSale(sb).sort())

    const inStock: ProductCard[] = []
    for await (const page of client.listProducts({ in_stock: true, limit: 200 })) inStock.push(...page.items)
    expect(inStock.length).toBeGreaterThan(0)
    expect(inStock.every((c) => c.in_stock)).toBe(true)

    const sample = all.find((c) => c.brand)!
    const byBrand: ProductCard[] = []
    for await (const page of client.listProducts({ brand_id: sample.brand!.id })) byBrand.push(...page.items)
    expect(byBrand.length).toBeGreaterThan(0)
    expect(byBrand.every((c) => c.brand?.id === sample.brand!.id)).toBe(true)

    const bySku: ProductCard[] = []
    for await (const page of client.listProducts({ sku_contains: sample.sku.slice(-5) })) bySku.push(...page.items)
    expect(bySku.map((c) => c.id)).toContain(sample.id)

    for await (const page of client.listProducts({ category_id: sample.category_id ?? "1", is_new: false, q: "zzzzzz-nothing" })) {
      expect(page.items).toEqual([])
    }
  })

  it("product by id and by SKU, with exact prices as decimal strings", async () => {
    const card = await client.getProduct(9223372036854775807n)
    expect(card.id).toBe("9223372036854775807")
    expect(card.cost_price === null || /^[0-9]+\.[0-9]{2}$/.test(card.cost_price)).toBe(true)
    if (card.cost_price !== null) {
      expect(card.price).toMatch(/^[0-9]+\.[0-9]{2}$/)
      expect(card.old_price).toMatch(/^[0-9]+\.[0-9]{2}$/)
    }
    const same = await client.getProductBySku(card.sku)
    expect(same).toEqual(card)
    await expect(client.getProductBySku("NO-SUCH-SKU")).rejects.toBeInstanceOf(NotFoundError)
  })

  it("stock for any number of ids and skus, split into API-sized requests", async () => {
    const before = (await control(sb, "/stats")).requests
    const ids = productIdsOnSale(sb)
    const live = await client.getProduct(ids[1])
    const result = await client.getStock({ ids: [...ids, "9007199254740993", "123"], skus: [live.sku, "NO-SUCH-SKU"] })
    expect(result.rejected).toEqual([])
    expect(result.items.map((i) => i.id).sort()).toEqual([...ids, live.id].sort())
    expect(result.missing.sort()).toEqual(["123", "9007199254740993", "NO-SUCH-SKU"].sort())
    expect(result.items.find((i) => i.id === "9223372036854775807")).toBeDefined()
    const requests = (await control(sb, "/stats")).requests - before
    expect(requests).toBe(1 + 3) // one getProduct, then 451 + 2 products in 3 stock requests
  })

  it("categories, brands and brand models with conditional requests (304 returns the cached body)", async () => {
    const notModifiedBefore = (await control(sb, "/stats")).not_modified
    const categories = await client.getCategories()
    expect(categories.notModified).toBe(false)
    expect(categories.etag).toBeDefined()
    expect(categories.lastModified).toBeDefined()
    expect(categories.data!.length).toBeGreaterThan(0)
    const ids = new Set(categories.data!.map((c) => c.id))
    expect(categories.data!.every((c) => c.parent_id === null || ids.has(c.parent_id))).toBe(true)

    const again = await client.getCategories()
    expect(again.notModified).toBe(true)
    expect(again.data).toEqual(categories.data)

    const brands = await client.getBrands()
    const brandsAgain = await client.getBrands()
    expect(brands.data!.length).toBeGreaterThan(0)
    expect(brandsAgain).toMatchObject({ notModified: true, data: brands.data })

    const models = await client.getBrandModels()
    expect(models.data!.every((m) => typeof m.brand_id === "string")).toBe(true)
    expect((await client.getBrandModels()).notModified).toBe(true)

    // Validators kept by the caller work with a fresh client (no cached body: data null).
    const fresh = clientFor(sb)
    const viaStored = await fresh.getBrands({ validators: { etag: brands.etag } })
    expect(viaStored).toMatchObject({ notModified: true, data: null, etag: brands.etag })
    await fresh.close()

    expect((await control(sb, "/stats")).not_modified - notModifiedBefore).toBe(4)
  })
})
