// Section 2.1 card fields and the generated catalog's realism and determinism.

import { startSandbox, type Sandbox } from "../server"
import { drainChanges, get } from "./http"

let sb: Sandbox
let cards: any[]
beforeAll(async () => {
  sb = await startSandbox({ products: 2000, seed: 1, rpm: 100_000, concurrency: 50 })
  cards = (await drainChanges(sb.baseUrl, sb.apiKey)).items.map((i) => i.product)
  // Building and draining 2,000 cards took 24 s on Node 20 and 35 s on Node 24 at load 28.
}, 120_000)
afterAll(async () => sb.close())

const CYRILLIC_UK = /[іїєґІЇЄҐ]/
const CYRILLIC_RU = /[ыэъЫЭЪ]|ие\b|ый\b/

describe("card fields", () => {
  it("every card has the spec's fields with their types", () => {
    for (const c of cards) {
      expect(BigInt(String(c.id)) >= 1n && BigInt(String(c.id)) <= 9223372036854775807n).toBe(true)
      expect(typeof c.sku).toBe("string")
      expect(typeof c.name).toBe("string")
      expect(c.cost_price === null || /^\d+\.\d{2}$/.test(c.cost_price)).toBe(true)
      expect(typeof c.in_stock).toBe("boolean")
      expect(c.in_stock).toBe(c.stock > 0)
      expect(Number.isInteger(c.sync_version)).toBe(true)
      expect(c.images.length).toBeGreaterThanOrEqual(1)
      expect(c.images.length).toBeLessThanOrEqual(8)
      expect(c.images[0].is_main).toBe(true)
      expect(c.images.filter((i: any) => i.is_main).length).toBe(1)
      for (const s of c.sizes) {
        expect(typeof s.size).toBe("string")
        expect(Number.isInteger(s.stock)).toBe(true)
      }
      if (c.sizes.length > 0) expect(c.stock).toBe(c.sizes.reduce((a: number, s: any) => a + s.stock, 0))
      for (const field of [
        "name_uk",
        "name_ru",
        "description_uk",
        "description_ru",
        "marketplace_text_uk",
        "marketplace_text_ru",
        "category_id",
        "brand",
        "brand_model",
        "attributes",
        "material_uk",
        "material_ru",
        "origin_country",
        "weight_kg",
        "dimensions_cm",
        "is_new",
        "updated_at",
      ]) {
        expect(c).toHaveProperty(field)
      }
      if (c.weight_kg !== null) expect(c.weight_kg).toMatch(/^\d+\.\d{3}$/)
      if (c.dimensions_cm !== null) for (const v of Object.values(c.dimensions_cm)) expect(v).toMatch(/^\d+\.\d$/)
    }
  })

  it("names and descriptions exist in Ukrainian and Russian", () => {
    expect(cards.filter((c) => CYRILLIC_UK.test(c.name_uk + c.description_uk)).length).toBeGreaterThan(cards.length / 2)
    expect(cards.filter((c) => CYRILLIC_RU.test(c.name_ru + c.description_ru)).length).toBeGreaterThan(cards.length / 2)
    expect(cards.every((c) => c.name === c.name_uk)).toBe(true)
  })

  it("ids spread over the 64-bit range, some above 2^53, all unique", () => {
    const ids = cards.map((c) => BigInt(String(c.id)))
    expect(new Set(ids.map(String)).size).toBe(cards.length)
    expect(ids.filter((id) => id > 2n ** 53n).length).toBeGreaterThan(50)
    expect(ids.filter((id) => id < 2n ** 32n).length).toBeGreaterThan(50)
    expect(ids.filter((id) => id > 2n ** 62n).length).toBeGreaterThan(10)
  })

  it("has clothing sizes, shoe sizes, products without sizes, out-of-stock products, new arrivals and null cost_price", () => {
    const sizes = new Set(cards.flatMap((c) => c.sizes.map((s: any) => s.size)))
    for (const s of ["S", "M", "XL", "38", "42"]) expect(sizes).toContain(s)
    expect(cards.filter((c) => c.sizes.length === 0).length).toBeGreaterThan(100)
    expect(cards.filter((c) => !c.in_stock).length).toBeGreaterThan(20)
    expect(cards.filter((c) => c.is_new).length).toBeGreaterThan(20)
    expect(cards.filter((c) => c.cost_price === null).length).toBeGreaterThan(5)
    expect(cards.filter((c) => c.brand_model !== null).length).toBeGreaterThan(100)
  })

  it("SKUs are unique", () => {
    expect(new Set(cards.map((c) => c.sku)).size).toBe(cards.length)
  })
})

describe("images", () => {
  it("are small real PNGs served by the sandbox, without a key and uncounted", async () => {
    const url: string = cards[0].images[0].url
    expect(url.startsWith(sb.baseUrl + "/images/")).toBe(true)
    const before = (await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })).json.data.usage.requests_today
    const res = await fetch(url)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("image/png")
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    expect(bytes.readUInt32BE(16)).toBe(32) // IHDR width
    const after = (await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })).json.data.usage.requests_today
    expect(after).toBe(before + 1)
  })

  it("answers 404 for images of products the catalog never had", async () => {
    const ids = new Set(cards.map((c) => String(c.id)))
    let absent = 2n
    while (ids.has(String(absent))) absent++
    expect((await fetch(`${sb.baseUrl}/images/${absent}/abcdef01.png`)).status).toBe(404)
    expect((await fetch(`${sb.baseUrl}/images/${cards[0].id}/abcdef01.png`)).status).toBe(200)
    expect((await fetch(`${sb.baseUrl}/images/${cards[0].id}/../x.png`)).status).toBe(404)
  })
})

describe("determinism", () => {
  it("the same seed gives the same catalog; another seed a different one", async () => {
    const strip = (text: string) =>
      text
        .replace(/http:\/\/127\.0\.0\.1:\d+/g, "")
        .replace(/"updated_at":"[^"]+"/g, "")
        .replace(/"next_cursor":"[^"]+"/, "")
    const page = async (s: Sandbox) => strip((await get(s.baseUrl, "/v1/products?limit=200&markup_percent=10", { key: s.apiKey })).text)
    const small = await startSandbox({ products: 500, seed: 1 })
    const twin = await startSandbox({ products: 500, seed: 1 })
    const other = await startSandbox({ products: 500, seed: 2 })
    try {
      expect(await page(twin)).toBe(await page(small))
      expect(await page(other)).not.toBe(await page(small))
      // Mutations are seeded too.
      const a = twin.control.mutate({ count: 20 })
      const b = small
      expect(JSON.stringify(b.control.mutate({ count: 20 }), (_k, v) => (typeof v === "bigint" ? v.toString() : v))).toBe(
        JSON.stringify(a, (_k, v) => (typeof v === "bigint" ? v.toString() : v))
      )
    } finally {
      await small.close()
      await twin.close()
      await other.close()
    }
  })
})
