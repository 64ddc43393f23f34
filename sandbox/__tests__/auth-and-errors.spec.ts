// Sections 4, 5 and 7: routing, methods, authentication, plans, error bodies.

import { startSandbox, type Sandbox } from "../server"
import { control, expectError, get } from "./http"

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ products: 50, seed: 3, apiKey: "auth-key", rpm: 100_000, concurrency: 50 })
})
afterAll(async () => sb.close())

const ENDPOINTS = [
  "/v1/me",
  "/v1/products",
  "/v1/products/changes",
  "/v1/products/by-sku?sku=X",
  "/v1/products/1",
  "/v1/stock?ids=1",
  "/v1/categories",
  "/v1/brands",
  "/v1/brand-models",
]

describe("routing", () => {
  it.each(["/", "/v1", "/v2/products", "/v1/product", "/v1/products/1/extra", "/v1/me/", "/images/x.png"])(
    "unknown path %s answers 404 not_found, even without a key",
    async (path) => {
      const result = await get(sb.baseUrl, path)
      expectError(result, 404, "not_found")
    }
  )

  it.each(["POST", "PUT", "PATCH", "DELETE", "OPTIONS"])("%s on every endpoint answers 405 method_not_allowed", async (method) => {
    for (const path of ENDPOINTS) {
      const result = await get(sb.baseUrl, path, { key: sb.apiKey, method })
      expectError(result, 405, "method_not_allowed")
      expect(result.headers.get("allow")).toBe("GET")
    }
  })

  it("HEAD answers 405 too (every request is a GET)", async () => {
    const res = await fetch(sb.baseUrl + "/v1/me", { method: "HEAD", headers: { "X-API-Key": sb.apiKey } })
    expect(res.status).toBe(405)
  })

  it("an unknown path is 404 before the method is checked", async () => {
    expectError(await get(sb.baseUrl, "/nope", { method: "POST" }), 404, "not_found")
  })

  it("every answer carries X-Trace-ID, unique per request", async () => {
    const a = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    const b = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    expect(a.headers.get("x-trace-id")).toBeTruthy()
    expect(a.headers.get("x-trace-id")).not.toBe(b.headers.get("x-trace-id"))
  })
})

describe("authentication (section 5)", () => {
  it.each(ENDPOINTS)("%s without a key answers 401 invalid_api_key", async (path) => {
    expectError(await get(sb.baseUrl, path), 401, "invalid_api_key")
  })

  it.each([["wrong"], ["auth-ke"], ["AUTH-KEY"], ["auth-key2"], [""]])("key %j answers 401", async (key) => {
    expectError(await get(sb.baseUrl, "/v1/products", { key }), 401, "invalid_api_key")
  })

  it("re-issuing the key invalidates the old one at once", async () => {
    const before = sb.apiKey
    const { api_key } = await control(sb.controlUrl, "/revoke-key")
    expect(api_key).not.toBe(before)
    expect(sb.apiKey).toBe(api_key)
    expectError(await get(sb.baseUrl, "/v1/me", { key: before }), 401, "invalid_api_key")
    expect((await get(sb.baseUrl, "/v1/me", { key: api_key })).status).toBe(200)
  })
})

describe("plans (section 5.5)", () => {
  afterEach(async () => {
    await control(sb.controlUrl, "/plan", { plan: "Ultra", expires_at: null })
  })

  it("a plan without API access answers 403 plan_required everywhere but /v1/me", async () => {
    await control(sb.controlUrl, "/plan", { plan: "Basic", expires_at: null })
    for (const path of ENDPOINTS.filter((p) => p !== "/v1/me")) {
      expectError(await get(sb.baseUrl, path, { key: sb.apiKey }), 403, "plan_required")
    }
    const me = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    expect(me.status).toBe(200)
    expect(me.json.data.plan).toBe("Basic")
  })

  it("an expired Ultra subscription answers 403 plan_required", async () => {
    await control(sb.controlUrl, "/plan", { plan: "Ultra", expires_at: "2020-01-01T00:00:00Z" })
    expectError(await get(sb.baseUrl, "/v1/products", { key: sb.apiKey }), 403, "plan_required")
    const me = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    expect(me.json.data.plan_expires_at).toBe("2020-01-01T00:00:00.000Z")
  })

  it("a future expiry and no plan at all behave as they should", async () => {
    await control(sb.controlUrl, "/plan", { plan: "Ultra", expires_at: "2999-01-01T00:00:00Z" })
    expect((await get(sb.baseUrl, "/v1/products", { key: sb.apiKey })).status).toBe(200)
    await control(sb.controlUrl, "/plan", { plan: null, expires_at: null })
    expectError(await get(sb.baseUrl, "/v1/products", { key: sb.apiKey }), 403, "plan_required")
    expect((await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })).json.data.plan).toBeNull()
  })

  it("401 comes before 403", async () => {
    await control(sb.controlUrl, "/plan", { plan: "Basic", expires_at: null })
    expectError(await get(sb.baseUrl, "/v1/products", { key: "nope" }), 401, "invalid_api_key")
  })
})

describe("/v1/me (section 2.3)", () => {
  it("returns plan, limits and usage with every required field", async () => {
    const me = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    expect(me.json.data).toEqual({
      plan: "Ultra",
      plan_expires_at: null,
      limits: { requests_per_minute: 100000, requests_per_day: 10000, page_size_max: 200, stock_batch_max: 200, max_concurrent: 50 },
      usage: { requests_today: expect.any(Number), quota_enforced: false },
    })
  })

  it("sends X-RateLimit-Remaining and X-Quota-Remaining on every answer to a valid key, errors included", async () => {
    const answers = [
      ...(await Promise.all(["/v1/me", "/v1/products?limit=0", "/v1/products/5", "/v1/nowhere"].map((p) => get(sb.baseUrl, p, { key: sb.apiKey })))),
      await get(sb.baseUrl, "/v1/me", { key: sb.apiKey, method: "POST" }),
    ]
    expect(answers.map((a) => a.status)).toEqual([200, 422, expect.any(Number), 404, 405])
    for (const result of answers) {
      expect(Number(result.headers.get("x-ratelimit-remaining"))).toBeGreaterThanOrEqual(0)
      expect(Number(result.headers.get("x-quota-remaining"))).toBeGreaterThanOrEqual(0)
      expect(result.headers.get("x-ratelimit-remaining")).not.toBeNull()
    }
    // Without a valid key there is no account to report on.
    expect((await get(sb.baseUrl, "/v1/me", { key: "nope" })).headers.get("x-ratelimit-remaining")).toBeNull()
  })
})
