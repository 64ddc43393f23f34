// Every parameter bound of sections 4.1, 4.2 and 8: 422 validation_error naming each offending parameter.

import { startSandbox, type Sandbox } from "../server"
import { expectError, get } from "./http"

let sb: Sandbox
let sku: string
beforeAll(async () => {
  sb = await startSandbox({ products: 60, seed: 4, rpm: 100_000, concurrency: 50 })
  sku = (await get(sb.baseUrl, "/v1/products?limit=1", { key: sb.apiKey })).json.data[0].sku
})
afterAll(async () => sb.close())

const PRICED = ["/v1/products", "/v1/products/changes", "/v1/products/by-sku?sku=ANY", "/v1/products/1", "/v1/stock?ids=1"]
const join = (path: string, query: string) => path + (path.includes("?") ? "&" : "?") + query

describe("common pricing parameters (4.1)", () => {
  const bad: [string, string][] = [
    ["price_calculation=median", "price_calculation"],
    ["price_calculation=MAX", "price_calculation"],
    ["price_calculation=", "price_calculation"],
    ["markup_percent=abc", "markup_percent"],
    ["markup_percent=", "markup_percent"],
    ["markup_percent=-1", "markup_percent"],
    ["markup_percent=1000.01", "markup_percent"],
    ["markup_percent=1e2", "markup_percent"],
    ["markup_percent=10%25", "markup_percent"],
    ["discount_percent=100", "discount_percent"],
    ["discount_percent=-0.5", "discount_percent"],
    ["discount_percent=x", "discount_percent"],
    ["old_price_markup_percent=1001", "old_price_markup_percent"],
    ["old_price_markup_percent=-3", "old_price_markup_percent"],
    ["markup_percent=10&markup_percent=20", "markup_percent"],
  ]
  it.each(PRICED)("%s rejects every bad pricing parameter", async (path) => {
    for (const [query, field] of bad) {
      expectError(await get(sb.baseUrl, join(path, query), { key: sb.apiKey }), 422, "validation_error", [field])
    }
  })

  it.each(PRICED)("%s accepts the bounds", async (path) => {
    for (const query of [
      "price_calculation=min",
      "price_calculation=avg",
      "price_calculation=max",
      "markup_percent=0",
      "markup_percent=1000",
      "markup_percent=12.345",
      "markup_percent=30&discount_percent=0",
      "markup_percent=30&discount_percent=99.99",
      "markup_percent=30&old_price_markup_percent=0",
      "markup_percent=30&old_price_markup_percent=1000",
    ]) {
      const result = await get(sb.baseUrl, join(path, query), { key: sb.apiKey })
      expect([200, 404]).toContain(result.status)
    }
  })

  it("names both fields when discount_percent and old_price_markup_percent are combined", async () => {
    const result = await get(sb.baseUrl, "/v1/products?markup_percent=10&discount_percent=5&old_price_markup_percent=50", { key: sb.apiKey })
    expectError(result, 422, "validation_error", ["discount_percent", "old_price_markup_percent"])
  })

  it("names every offending parameter at once", async () => {
    const result = await get(sb.baseUrl, "/v1/products?limit=0&q=ab&in_stock=maybe&markup_percent=abc&category_id=0", { key: sb.apiKey })
    expectError(result, 422, "validation_error", ["limit", "q", "in_stock", "markup_percent", "category_id"])
  })

  it("ignores unknown parameters", async () => {
    expect((await get(sb.baseUrl, "/v1/products?foo=bar&limit=2", { key: sb.apiKey })).status).toBe(200)
  })
})

describe("/v1/products and /v1/products/changes parameters", () => {
  const listBad: [string, string][] = [
    ["limit=0", "limit"],
    ["limit=201", "limit"],
    ["limit=1.5", "limit"],
    ["limit=-1", "limit"],
    ["limit=abc", "limit"],
    ["limit=", "limit"],
    ["cursor=" + "A".repeat(201), "cursor"],
    ["cursor=", "cursor"],
  ]
  it.each(["/v1/products", "/v1/products/changes"])("%s: limit and cursor bounds", async (path) => {
    for (const [query, field] of listBad) {
      expectError(await get(sb.baseUrl, `${path}?${query}`, { key: sb.apiKey }), 422, "validation_error", [field])
    }
    for (const limit of [1, 200]) {
      const result = await get(sb.baseUrl, `${path}?limit=${limit}`, { key: sb.apiKey })
      expect(result.status).toBe(200)
      expect(result.json.data.length).toBe(Math.min(limit, 60))
    }
    expect((await get(sb.baseUrl, path, { key: sb.apiKey })).json.data.length).toBe(60) // default 100
  })

  it("a 200-character cursor is not a length error (it is checked as a cursor)", async () => {
    expectError(await get(sb.baseUrl, `/v1/products/changes?cursor=${"A".repeat(200)}`, { key: sb.apiKey }), 422, "invalid_cursor")
  })

  const filterBad: [string, string][] = [
    ["category_id=0", "category_id"],
    ["category_id=-1", "category_id"],
    ["category_id=x", "category_id"],
    ["category_id=9223372036854775808", "category_id"],
    ["brand_id=0", "brand_id"],
    ["brand_id=1.0", "brand_id"],
    ["sku_contains=ab", "sku_contains"],
    ["sku_contains=" + "a".repeat(101), "sku_contains"],
    ["q=ab", "q"],
    ["q=" + "я".repeat(101), "q"],
    ["in_stock=maybe", "in_stock"],
    ["in_stock=1", "in_stock"],
    ["is_new=yes", "is_new"],
    ["is_new=", "is_new"],
  ]
  it("rejects every bad filter of /v1/products", async () => {
    for (const [query, field] of filterBad) {
      expectError(await get(sb.baseUrl, `/v1/products?${encodeURI(query)}`, { key: sb.apiKey }), 422, "validation_error", [field])
    }
  })

  it("accepts filter bounds", async () => {
    for (const query of [
      "category_id=1",
      "category_id=9223372036854775807",
      "brand_id=1",
      "sku_contains=abc",
      "sku_contains=" + "a".repeat(100),
      "q=abc",
      "q=" + "я".repeat(100),
      "in_stock=true",
      "in_stock=false",
      "is_new=true",
      "is_new=false",
    ]) {
      expect((await get(sb.baseUrl, `/v1/products?${encodeURI(query)}`, { key: sb.apiKey })).status).toBe(200)
    }
  })
})

describe("single product parameters", () => {
  it.each(["0", "-1", "abc", "1.5", "9223372036854775808", "99999999999999999999999"])("product_id %s is 422 naming product_id", async (id) => {
    expectError(await get(sb.baseUrl, `/v1/products/${id}`, { key: sb.apiKey }), 422, "validation_error", ["product_id"])
  })

  it("product_id 9223372036854775807 is valid", async () => {
    expect([200, 404]).toContain((await get(sb.baseUrl, "/v1/products/9223372036854775807", { key: sb.apiKey })).status)
  })

  it("by-sku needs sku of 1 to 100 characters", async () => {
    for (const query of ["", "sku=", "sku=" + "a".repeat(101)]) {
      expectError(await get(sb.baseUrl, `/v1/products/by-sku?${query}`, { key: sb.apiKey }), 422, "validation_error", ["sku"])
    }
    expect((await get(sb.baseUrl, `/v1/products/by-sku?sku=${"a".repeat(100)}`, { key: sb.apiKey })).status).toBe(404)
    expect((await get(sb.baseUrl, `/v1/products/by-sku?sku=${sku}`, { key: sb.apiKey })).status).toBe(200)
  })
})

describe("/v1/stock parameters (section 8 limits)", () => {
  it("needs ids or skus", async () => {
    expectError(await get(sb.baseUrl, "/v1/stock", { key: sb.apiKey }), 422, "validation_error", ["ids", "skus"])
  })

  it("rejects non-integer ids and ids out of range", async () => {
    for (const ids of ["1,x", "1,,2", "0", "-5", "1.5", "9223372036854775808", "1;2"]) {
      expectError(await get(sb.baseUrl, `/v1/stock?ids=${ids}`, { key: sb.apiKey }), 422, "validation_error", ["ids"])
    }
  })

  it("ids up to 4000 characters, skus up to 8000", async () => {
    // 200 ids of 19 digits and commas is 3999 characters; one leading zero makes 4000.
    const ids4000 = "0" + Array.from({ length: 200 }, (_, i) => String(1000000000000000000n + BigInt(i))).join(",")
    expect(ids4000.length).toBe(4000)
    expect((await get(sb.baseUrl, `/v1/stock?ids=${ids4000}`, { key: sb.apiKey })).status).toBe(200)
    expectError(await get(sb.baseUrl, `/v1/stock?ids=${ids4000}1`, { key: sb.apiKey }), 422, "validation_error", ["ids"])
    // 80 skus of 99 characters and commas is 7999 characters; one more letter makes 8000.
    const skus8000 = Array.from({ length: 80 }, (_, i) => String(i).padStart(99, "s")).join(",") + "s"
    expect(skus8000.length).toBe(8000)
    expect((await get(sb.baseUrl, `/v1/stock?skus=${skus8000}`, { key: sb.apiKey })).status).toBe(200)
    expectError(await get(sb.baseUrl, `/v1/stock?skus=${skus8000}s`, { key: sb.apiKey }), 422, "validation_error", ["skus"])
    expectError(await get(sb.baseUrl, `/v1/stock?skus=a,${"s".repeat(101)}`, { key: sb.apiKey }), 422, "validation_error", ["skus"])
    expectError(await get(sb.baseUrl, `/v1/stock?skus=${"s".repeat(8001)}`, { key: sb.apiKey }), 422, "validation_error", ["skus"])
  })

  it("at most 200 products per request, ids and skus together", async () => {
    const ids = Array.from({ length: 150 }, (_, i) => i + 1).join(",")
    const skus = Array.from({ length: 50 }, (_, i) => `S${i}`).join(",")
    expect((await get(sb.baseUrl, `/v1/stock?ids=${ids}&skus=${skus}`, { key: sb.apiKey })).status).toBe(200)
    expectError(await get(sb.baseUrl, `/v1/stock?ids=${ids}&skus=${skus},S51`, { key: sb.apiKey }), 422, "validation_error", ["ids", "skus"])
    const ids201 = Array.from({ length: 201 }, (_, i) => i + 1).join(",")
    expectError(await get(sb.baseUrl, `/v1/stock?ids=${ids201}`, { key: sb.apiKey }), 422, "validation_error", ["ids"])
  })
})

describe("long URLs", () => {
  it("accepts skus at their 8000-character limit even with non-ASCII articles percent-encoded", async () => {
    const skus = Array.from({ length: 80 }, (_, i) => String(i).padStart(99, "я")).join(",") + "я"
    expect(skus.length).toBe(8000)
    const result = await get(sb.baseUrl, `/v1/stock?skus=${encodeURIComponent(skus)}&ids=1`, { key: sb.apiKey })
    expect(result.status).toBe(200)
    expect(result.json.meta.missing.length).toBeGreaterThanOrEqual(80)
  })
})
