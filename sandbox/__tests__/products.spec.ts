// /v1/products (filters, order, paging), single products, 64-bit ids.

import { startSandbox, type Sandbox } from "../server"
import { control, expectError, get } from "./http"

let sb: Sandbox
let all: any[]
beforeAll(async () => {
  sb = await startSandbox({ products: 400, seed: 5, rpm: 100_000, concurrency: 50 })
  all = await listAll("")
})
afterAll(async () => sb.close())

async function listAll(query: string): Promise<any[]> {
  const cards: any[] = []
  let cursor: string | null = null
  for (let page = 0; page < 100; page++) {
    const q: string = `limit=200${query ? "&" + query : ""}${cursor ? "&cursor=" + cursor : ""}`
    const result = await get(sb.baseUrl, `/v1/products?${q}`, { key: sb.apiKey })
    expect(result.status).toBe(200)
    cards.push(...result.json.data)
    if (!result.json.meta.has_more) {
      expect(result.json.meta.next_cursor).toBeNull()
      return cards
    }
    expect(typeof result.json.meta.next_cursor).toBe("string")
    cursor = result.json.meta.next_cursor
  }
  throw new Error("listing does not end")
}

const big = (id: unknown) => BigInt(String(id))

describe("listing", () => {
  it("serves every product once, sorted by id ascending, across pages", async () => {
    expect(all.length).toBe(400)
    const ids = all.map((c) => big(c.id))
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true)
    const small = await listAll("limit=7".replace("limit=7", "")) // same again
    expect(small.map((c) => String(c.id))).toEqual(all.map((c) => String(c.id)))
  })

  it("pages of 7 give the same sequence as pages of 200", async () => {
    const cards: any[] = []
    let cursor: string | null = null
    for (;;) {
      const result: any = await get(sb.baseUrl, `/v1/products?limit=7${cursor ? "&cursor=" + cursor : ""}`, { key: sb.apiKey })
      expect(result.json.data.length).toBeLessThanOrEqual(7)
      cards.push(...result.json.data)
      if (!result.json.meta.has_more) break
      cursor = result.json.meta.next_cursor
      expect(cursor!.length).toBeLessThanOrEqual(200)
    }
    expect(cards.map((c) => String(c.id))).toEqual(all.map((c) => String(c.id)))
  })

  it("writes 64-bit ids as exact JSON integers, some above 2^53", async () => {
    const result = await get(sb.baseUrl, "/v1/products?limit=200", { key: sb.apiKey })
    expect(result.text.includes('"id":"')).toBe(false)
    expect(all.map((c) => String(c.id))).toContain("9223372036854775807")
    expect(all.some((c) => big(c.id) > 2n ** 53n)).toBe(true)
    expect(all.some((c) => big(c.id) < 2n ** 32n)).toBe(true)
    expect(all.map((c) => String(c.id))).toContain("9007199254740993")
  })

  it("filters by category, including its subcategories", async () => {
    const categories = (await get(sb.baseUrl, "/v1/categories", { key: sb.apiKey })).json.data
    const top = categories.find((c: any) => c.parent_id === null)
    const descendants = new Set<number>([top.id])
    for (let grew = true; grew;) {
      grew = false
      for (const c of categories) if (descendants.has(c.parent_id) && !descendants.has(c.id)) (descendants.add(c.id), (grew = true))
    }
    const filtered = await listAll(`category_id=${top.id}`)
    expect(filtered.length).toBeGreaterThan(0)
    expect(filtered.map((c) => c.id)).toEqual(all.filter((c) => descendants.has(c.category_id)).map((c) => c.id))
    const leaf = filtered[0].category_id
    expect((await listAll(`category_id=${leaf}`)).map((c) => c.id)).toEqual(all.filter((c) => c.category_id === leaf).map((c) => c.id))
    expect(await listAll("category_id=999999")).toEqual([])
  })

  it("filters by brand", async () => {
    const brandId = all.find((c) => c.brand)!.brand.id
    const filtered = await listAll(`brand_id=${brandId}`)
    expect(filtered.length).toBeGreaterThan(0)
    expect(filtered.map((c) => c.id)).toEqual(all.filter((c) => c.brand?.id === brandId).map((c) => c.id))
  })

  it("filters by sku_contains (case-insensitive substring of the article)", async () => {
    const needle = all[10].sku.slice(-5).toLowerCase()
    const filtered = await listAll(`sku_contains=${needle}`)
    expect(filtered.map((c) => c.id)).toEqual(all.filter((c) => c.sku.toLowerCase().includes(needle)).map((c) => c.id))
    expect(filtered.map((c) => c.id)).toContain(all[10].id)
  })

  it("searches q in Ukrainian and Russian names and the article", async () => {
    const target = all[20]
    for (const needle of [target.name_uk.split(",")[0], target.name_ru.split(",")[0], target.sku]) {
      const filtered = await listAll(`q=${encodeURIComponent(needle)}`)
      expect(filtered.map((c) => c.id)).toContain(target.id)
      const lower = needle.toLowerCase()
      expect(filtered.map((c) => c.id)).toEqual(
        all.filter((c) => [c.name_uk, c.name_ru, c.sku].some((t: string) => t.toLowerCase().includes(lower))).map((c) => c.id)
      )
    }
  })

  it("filters by in_stock and is_new", async () => {
    const inStock = await listAll("in_stock=true")
    const outOfStock = await listAll("in_stock=false")
    expect(inStock.every((c) => c.in_stock && c.stock > 0)).toBe(true)
    expect(outOfStock.every((c) => !c.in_stock && c.stock === 0)).toBe(true)
    expect(inStock.length + outOfStock.length).toBe(all.length)
    expect(outOfStock.length).toBeGreaterThan(0)
    const fresh = await listAll("is_new=true")
    expect(fresh.length).toBeGreaterThan(0)
    expect(fresh.every((c) => c.is_new)).toBe(true)
    expect((await listAll("is_new=false")).every((c) => !c.is_new)).toBe(true)
  })

  it("combines filters", async () => {
    const brandId = all.find((c) => c.brand)!.brand.id
    const filtered = await listAll(`brand_id=${brandId}&in_stock=true`)
    expect(filtered.map((c) => c.id)).toEqual(all.filter((c) => c.brand?.id === brandId && c.in_stock).map((c) => c.id))
  })

  it("binds the cursor to the filters (invalid_cursor) and the pricing (pricing_changed)", async () => {
    const first = await get(sb.baseUrl, "/v1/products?limit=5&in_stock=true&markup_percent=10", { key: sb.apiKey })
    const cursor = first.json.meta.next_cursor
    expect((await get(sb.baseUrl, `/v1/products?limit=5&in_stock=true&markup_percent=10&cursor=${cursor}`, { key: sb.apiKey })).status).toBe(200)
    expectError(await get(sb.baseUrl, `/v1/products?limit=5&in_stock=false&markup_percent=10&cursor=${cursor}`, { key: sb.apiKey }), 422, "invalid_cursor")
    expectError(await get(sb.baseUrl, `/v1/products?limit=5&in_stock=true&markup_percent=11&cursor=${cursor}`, { key: sb.apiKey }), 422, "pricing_changed")
    expectError(await get(sb.baseUrl, `/v1/products?limit=5&in_stock=true&cursor=${cursor}`, { key: sb.apiKey }), 422, "pricing_changed")
    // A list cursor is not a changes cursor.
    expectError(await get(sb.baseUrl, `/v1/products/changes?markup_percent=10&cursor=${cursor}`, { key: sb.apiKey }), 422, "invalid_cursor")
  })

  it("the limit may change between pages", async () => {
    const first = await get(sb.baseUrl, "/v1/products?limit=3", { key: sb.apiKey })
    const second = await get(sb.baseUrl, `/v1/products?limit=10&cursor=${first.json.meta.next_cursor}`, { key: sb.apiKey })
    expect(second.json.data.map((c: any) => c.id)).toEqual(all.slice(3, 13).map((c) => c.id))
  })
})

describe("single product", () => {
  it("by id and by sku answer the same card as the list, with meta.pricing", async () => {
    const card = all[42]
    const byId = await get(sb.baseUrl, `/v1/products/${card.id}`, { key: sb.apiKey })
    const bySku = await get(sb.baseUrl, `/v1/products/by-sku?sku=${encodeURIComponent(card.sku)}`, { key: sb.apiKey })
    expect(byId.json.data).toEqual(card)
    expect(bySku.json.data).toEqual(card)
    expect(byId.json.meta.pricing).toEqual({ price_calculation: "max", markup_percent: null, discount_percent: null, old_price_markup_percent: null })
  })

  it("the product with id 9223372036854775807 is served exactly", async () => {
    const result = await get(sb.baseUrl, "/v1/products/9223372036854775807", { key: sb.apiKey })
    expect(result.status).toBe(200)
    expect(result.text.startsWith('{"data":{"id":9223372036854775807,')).toBe(true)
  })

  it("answers 404 not_found for absent products and articles", async () => {
    const ids = new Set(all.map((c) => String(c.id)))
    let absent = 2n
    while (ids.has(String(absent))) absent++
    expectError(await get(sb.baseUrl, `/v1/products/${absent}`, { key: sb.apiKey }), 404, "not_found")
    expectError(await get(sb.baseUrl, "/v1/products/by-sku?sku=NO-SUCH", { key: sb.apiKey }), 404, "not_found")
    // The article is exact, not a substring or case-insensitive match.
    expectError(await get(sb.baseUrl, `/v1/products/by-sku?sku=${all[0].sku.toLowerCase()}`, { key: sb.apiKey }), 404, "not_found")
  })

  it("removed products answer 404 and leave listings", async () => {
    const victim = all[100]
    const removed = await control(sb.controlUrl, "/mutate", { count: 0, remove_ids: [String(victim.id)] })
    expect(removed.__raw).toContain(`"removed":[${victim.id}]`)
    expectError(await get(sb.baseUrl, `/v1/products/${victim.id}`, { key: sb.apiKey }), 404, "not_found")
    expectError(await get(sb.baseUrl, `/v1/products/by-sku?sku=${victim.sku}`, { key: sb.apiKey }), 404, "not_found")
    const after = await listAll("")
    expect(after.map((c) => String(c.id))).not.toContain(String(victim.id))
    expect(after.length).toBe(all.length - 1)
  })
})
