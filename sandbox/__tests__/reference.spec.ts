// Section 2.6 reference records and the 304 conditional requests of section 4.2.

import { startSandbox, type Sandbox } from "../server"
import { control, get } from "./http"

let sb: Sandbox
beforeEach(async () => {
  sb = await startSandbox({ products: 300, seed: 8, rpm: 100_000, concurrency: 50 })
})
afterEach(async () => sb.close())

describe("reference records", () => {
  it("categories: a tree three levels deep, built from parent_id, names in both languages", async () => {
    const { json } = await get(sb.baseUrl, "/v1/categories", { key: sb.apiKey })
    const byId = new Map<number, any>(json.data.map((c: any) => [c.id, c]))
    const depth = (c: any): number => (c.parent_id === null ? 1 : 1 + depth(byId.get(c.parent_id)))
    const depths = new Set(json.data.map(depth))
    expect([...depths].sort()).toEqual([1, 2, 3])
    for (const c of json.data) {
      expect(c).toEqual({
        id: expect.any(Number),
        parent_id: c.parent_id === null ? null : expect.any(Number),
        name: c.name_uk,
        name_uk: expect.any(String),
        name_ru: expect.any(String),
        slug: expect.stringMatching(/^[a-z0-9-]+$/),
      })
      if (c.parent_id !== null) expect(byId.has(c.parent_id)).toBe(true)
    }
    // Every product sits in a known category.
    const products = (await get(sb.baseUrl, "/v1/products?limit=200", { key: sb.apiKey })).json.data
    for (const p of products) expect(byId.has(p.category_id)).toBe(true)
  })

  it("brands and brand models: only those with products on sale", async () => {
    const brands = (await get(sb.baseUrl, "/v1/brands", { key: sb.apiKey })).json.data
    const models = (await get(sb.baseUrl, "/v1/brand-models", { key: sb.apiKey })).json.data
    const live = sb.state.catalog.liveProducts()
    expect(new Set(brands.map((b: any) => b.id))).toEqual(new Set(live.filter((p) => p.brandId !== null).map((p) => p.brandId)))
    expect(new Set(models.map((m: any) => m.id))).toEqual(new Set(live.filter((p) => p.brandModelId !== null).map((p) => p.brandModelId)))
    const brandIds = new Set(brands.map((b: any) => b.id))
    for (const m of models) {
      expect(Object.keys(m).sort()).toEqual(["brand_id", "id", "name", "slug"])
      expect(brandIds.has(m.brand_id)).toBe(true)
    }
    for (const b of brands) expect(Object.keys(b).sort()).toEqual(["id", "name", "slug"])
  })

  it("a brand whose last product is removed leaves /v1/brands and the ETag changes", async () => {
    const first = await get(sb.baseUrl, "/v1/brands", { key: sb.apiKey })
    const live = sb.state.catalog.liveProducts()
    const counts = new Map<number, string[]>()
    for (const p of live) if (p.brandId !== null) counts.set(p.brandId, [...(counts.get(p.brandId) ?? []), p.idText])
    const [brandId, ids] = [...counts.entries()].sort((a, b) => a[1].length - b[1].length)[0]
    await control(sb.controlUrl, "/mutate", { remove_ids: ids })
    const after = await get(sb.baseUrl, "/v1/brands", { key: sb.apiKey, headers: { "If-None-Match": first.headers.get("etag")! } })
    expect(after.status).toBe(200)
    expect(after.json.data.map((b: any) => b.id)).not.toContain(brandId)
    expect(after.headers.get("etag")).not.toBe(first.headers.get("etag"))
    expect(Date.parse(after.headers.get("last-modified")!)).toBeGreaterThan(Date.parse(first.headers.get("last-modified")!))
  })
})

describe("conditional requests", () => {
  it.each(["/v1/categories", "/v1/brands", "/v1/brand-models"])("%s answers 304 to If-None-Match and If-Modified-Since", async (path) => {
    const first = await get(sb.baseUrl, path, { key: sb.apiKey })
    expect(first.status).toBe(200)
    const etag = first.headers.get("etag")!
    const lastModified = first.headers.get("last-modified")!
    expect(etag).toMatch(/^"[^"]+"$/)
    expect(Number.isNaN(Date.parse(lastModified))).toBe(false)

    const hits: Record<string, string>[] = [
      { "If-None-Match": etag },
      { "If-None-Match": `"other", ${etag}` },
      { "If-None-Match": `W/${etag}` },
      { "If-None-Match": "*" },
      { "If-Modified-Since": lastModified },
      { "If-Modified-Since": new Date(Date.parse(lastModified) + 60_000).toUTCString() },
    ]
    for (const headers of hits) {
      const res = await fetch(sb.baseUrl + path, { headers: { "X-API-Key": sb.apiKey, ...headers } })
      expect(res.status).toBe(304)
      expect(await res.text()).toBe("")
      expect(res.headers.get("etag")).toBe(etag)
      expect(res.headers.get("x-trace-id")).toBeTruthy()
      expect(res.headers.get("x-ratelimit-remaining")).toBeTruthy()
    }
    const misses: Record<string, string>[] = [
      { "If-None-Match": '"other"' },
      { "If-Modified-Since": new Date(Date.parse(lastModified) - 1000).toUTCString() },
      { "If-Modified-Since": "not a date" },
      // If-None-Match wins over If-Modified-Since.
      { "If-None-Match": '"other"', "If-Modified-Since": lastModified },
    ]
    for (const headers of misses) {
      const res = await get(sb.baseUrl, path, { key: sb.apiKey, headers })
      expect(res.status).toBe(200)
      expect(res.text).toBe(first.text)
    }
  })

  it("authentication and limits still apply to conditional requests", async () => {
    const first = await get(sb.baseUrl, "/v1/categories", { key: sb.apiKey })
    const res = await get(sb.baseUrl, "/v1/categories", { headers: { "If-None-Match": first.headers.get("etag")! } })
    expect(res.status).toBe(401)
  })
})

describe("control: a new category", () => {
  it("joins /v1/categories with a new ETag, and the moved product is in the changes feed under it", async () => {
    const first = await get(sb.baseUrl, "/v1/categories", { key: sb.apiKey })
    const etag = first.headers.get("etag")!
    const cursor = (await get(sb.baseUrl, "/v1/products/changes?limit=200", { key: sb.apiKey })).json.meta.next_cursor
    let after = cursor
    for (let page = await get(sb.baseUrl, `/v1/products/changes?limit=200&cursor=${encodeURIComponent(after)}`, { key: sb.apiKey }); ;) {
      after = page.json.meta.next_cursor
      if (!page.json.meta.has_more) break
      page = await get(sb.baseUrl, `/v1/products/changes?limit=200&cursor=${encodeURIComponent(after)}`, { key: sb.apiKey })
    }
    const target = sb.state.catalog.liveProducts()[3].idText
    const made = await control(sb.controlUrl, "/new-category", { ids: [target], name_uk: "Пляжне", name_ru: "Пляжное", parent_id: 1 })
    const newId = Number(made.category.id)
    expect(made.moved).toEqual([target])
    expect(first.json.data.some((c: any) => c.id === newId)).toBe(false)

    const revalidated = await get(sb.baseUrl, "/v1/categories", { key: sb.apiKey, headers: { "If-None-Match": etag } })
    expect(revalidated.status).toBe(200)
    expect(revalidated.headers.get("etag")).not.toBe(etag)
    expect(revalidated.json.data).toContainEqual(expect.objectContaining({ id: newId, parent_id: 1, name_uk: "Пляжне", name_ru: "Пляжное" }))
    // Unchanged since: a 304 again.
    const again = await get(sb.baseUrl, "/v1/categories", { key: sb.apiKey, headers: { "If-None-Match": revalidated.headers.get("etag")! } })
    expect(again.status).toBe(304)

    const changes = await get(sb.baseUrl, `/v1/products/changes?limit=200&cursor=${encodeURIComponent(after)}`, { key: sb.apiKey })
    expect(changes.json.data).toHaveLength(1)
    expect(String(changes.json.data[0].product.id)).toBe(target)
    expect(changes.json.data[0].product.category_id).toBe(newId)
    // The filter by the parent finds it in the parent's subtree.
    const underParent = await get(sb.baseUrl, `/v1/products?category_id=1&limit=200`, { key: sb.apiKey })
    expect(underParent.json.data.map((p: any) => String(p.id))).toContain(target)
  })

  it("refuses an unknown parent", async () => {
    await expect(control(sb.controlUrl, "/new-category", { parent_id: 999_999 })).rejects.toThrow(/400|parent_id/)
  })
})
