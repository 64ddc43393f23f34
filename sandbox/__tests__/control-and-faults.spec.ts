// Control API (on its own port only) and injected faults.

import { request } from "node:http"
import { startSandbox, type Sandbox } from "../server"
import { control, expectError, get } from "./http"

let sb: Sandbox
beforeEach(async () => {
  sb = await startSandbox({ products: 100, seed: 9, rpm: 100_000, concurrency: 50 })
})
afterEach(async () => sb.close())

describe("control API", () => {
  it("is never served on the public port", async () => {
    for (const path of ["/mutate", "/revoke-key", "/plan", "/faults", "/stats", "/reset-limits", "/rotate-cursor-secret"]) {
      for (const method of ["GET", "POST"]) {
        expectError(await get(sb.baseUrl, path, { method, key: sb.apiKey }), 404, "not_found")
      }
    }
  })

  it("and the public API is not served on the control port", async () => {
    const res = await fetch(sb.controlUrl + "/v1/me", { headers: { "X-API-Key": sb.apiKey } })
    expect(res.status).toBe(404)
  })

  it("POST /mutate answers changed, removed and added ids as exact JSON integers", async () => {
    const result = await control(sb.controlUrl, "/mutate", { count: 200 })
    expect(result.__raw).toMatch(/^\{"changed":\[[0-9,]*\],"removed":\[[0-9,]*\],"added":\[[0-9,]*\]\}$/)
    expect(result.changed.length).toBeGreaterThan(0)
    expect(result.removed.length).toBeGreaterThan(0)
    expect(result.added.length).toBeGreaterThan(0)
    for (const id of result.removed) expect(result.changed.map(String)).not.toContain(String(id))
  })

  it("POST /mutate restricts kinds and targets ids (large ids exact)", async () => {
    const max = "9223372036854775807"
    const result = await control(sb.controlUrl, "/mutate", { count: 2, kinds: ["stock"], ids: [max] })
    // JSON.stringify cannot write the big id as a number here, so send the raw body.
    const raw = await fetch(sb.controlUrl + "/mutate", { method: "POST", body: `{"count":1,"kinds":["description"],"ids":[${max}]}` })
    expect(await raw.text()).toBe(`{"changed":[${max}],"removed":[],"added":[]}`)
    expect(result.changed.map(String)).toEqual([max])
    const card = (await get(sb.baseUrl, `/v1/products/${max}`, { key: sb.apiKey })).json.data
    expect(card.sync_version).toBe(4)
    const removed = await fetch(sb.controlUrl + "/mutate", { method: "POST", body: `{"remove_ids":[${max}]}` })
    expect(await removed.text()).toBe(`{"changed":[],"removed":[${max}],"added":[]}`)
    expect((await get(sb.baseUrl, `/v1/products/${max}`, { key: sb.apiKey })).status).toBe(404)
  })

  it("POST /money-format serves money as bare JSON numbers, and back as decimal strings", async () => {
    const page = async () => (await get(sb.baseUrl, "/v1/products?limit=50&markup_percent=30", { key: sb.apiKey })).text
    expect(await page()).toMatch(/"cost_price":"\d+\.\d{2}"/)
    await control(sb.controlUrl, "/money-format", { as: "number" })
    const numbers = await page()
    expect(numbers).not.toMatch(/"(cost_price|price)":"/)
    // Trailing zeros dropped as a serializer would: 130.5, never 130.50.
    expect(numbers).toMatch(/"price":\d+\.\d(?!\d)/)
    expect(numbers).not.toMatch(/"(cost_price|price)":\d+\.\d?0[,}]/)
    await control(sb.controlUrl, "/money-format", { as: "string" })
    expect(await page()).toMatch(/"price":"\d+\.\d{2}"/)
    await expect(control(sb.controlUrl, "/money-format", { as: "float" })).rejects.toThrow(/400.*as must be/)
  })

  it("rejects bad control requests with 400", async () => {
    for (const [path, body] of [
      ["/mutate", '{"count":-1}'],
      ["/mutate", '{"kinds":["teleport"]}'],
      ["/mutate", "not json"],
      ["/faults", '{"fail_rate":2}'],
      ["/faults", '{"kinds":["fire"]}'],
      ["/plan", '{"plan":"Ultra","expires_at":"someday"}'],
    ]) {
      const res = await fetch(sb.controlUrl + path, { method: "POST", body })
      expect(res.status).toBe(400)
    }
    expect((await fetch(sb.controlUrl + "/nope", { method: "POST" })).status).toBe(404)
    expect((await fetch(sb.controlUrl + "/mutate")).status).toBe(405)
  })

  it("GET /stats counts requests, statuses, 429s by kind and faults", async () => {
    await control(sb.controlUrl, "/limits", { rpm: 2 })
    await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    await get(sb.baseUrl, "/v1/me")
    const stats = await control(sb.controlUrl, "/stats", undefined, "GET")
    expect(stats.requests).toBe(4)
    expect(stats.by_status).toEqual({ 200: 2, 401: 1, 429: 1 })
    expect(stats.rate_limited).toEqual({ per_minute: 1, concurrency: 0, daily_quota: 0, total: 1 })
    expect(stats.faults.total).toBe(0)
  })

  it("GET /state summarises the sandbox", async () => {
    const state = await control(sb.controlUrl, "/state", undefined, "GET")
    expect(state).toMatchObject({ products: 100, removed: 0, change_log_length: 0, api_key: sb.apiKey, plan: "Ultra" })
  })

  it("in-process control actions match the HTTP ones", async () => {
    const result = sb.control.mutate({ count: 3, kinds: ["price"] }) as any
    expect(result.changed.length).toBeGreaterThan(0)
    expect(typeof result.changed[0]).toBe("bigint")
  })
})

describe("faults", () => {
  it.each([
    ["500", 500, "internal_error"],
    ["502", 502, "internal_error"],
    ["503", 503, "service_unavailable"],
    ["429", 429, "rate_limited"],
  ])("kind %s answers %d %s with the spec's error body", async (kind, status, code) => {
    await control(sb.controlUrl, "/faults", { fail_rate: 1, kinds: [kind] })
    const result = await get(sb.baseUrl, "/v1/products?limit=1", { key: sb.apiKey })
    expectError(result, status as number, code as string)
    if (status === 429 || status === 503) expect(Number(result.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
    const stats = await control(sb.controlUrl, "/stats", undefined, "GET")
    expect(stats.faults[kind]).toBe(1)
  })

  it("reset cuts the connection without an answer", async () => {
    await control(sb.controlUrl, "/faults", { fail_rate: 1, kinds: ["reset"] })
    await expect(get(sb.baseUrl, "/v1/me", { key: sb.apiKey })).rejects.toThrow()
  })

  it("truncate promises a body and sends half of it", async () => {
    await control(sb.controlUrl, "/faults", { fail_rate: 1, kinds: ["truncate"] })
    const outcome = await new Promise<{ status: number; promised: number; received: number; aborted: boolean }>((resolve) => {
      const req = request(sb.baseUrl + "/v1/products?limit=50", { headers: { "X-API-Key": sb.apiKey } }, (res) => {
        let received = 0
        res.on("data", (chunk: Buffer) => (received += chunk.length))
        const done = (aborted: boolean) => resolve({ status: res.statusCode!, promised: Number(res.headers["content-length"]), received, aborted })
        res.on("end", () => done(false))
        res.on("aborted", () => done(true))
        res.on("error", () => done(true))
      })
      req.on("error", () => resolve({ status: 0, promised: 0, received: 0, aborted: true }))
      req.end()
    })
    expect(outcome.status).toBe(200)
    expect(outcome.aborted).toBe(true)
    expect(outcome.received).toBeLessThan(outcome.promised)
  })

  it("slow answers arrive late but whole", async () => {
    await control(sb.controlUrl, "/faults", { fail_rate: 1, kinds: ["slow"], slow_ms: 150 })
    const result = await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })
    expect(result.status).toBe(200)
    expect((await control(sb.controlUrl, "/stats", undefined, "GET")).faults.slow).toBe(1)
  })

  it("a fraction of answers fail at fail_rate, and fail_rate 0 stops them", async () => {
    await control(sb.controlUrl, "/faults", { fail_rate: 0.5, kinds: ["500", "503"] })
    const statuses: number[] = []
    for (let i = 0; i < 40; i++) statuses.push((await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })).status)
    const failed = statuses.filter((s) => s >= 500).length
    expect(failed).toBeGreaterThan(5)
    expect(failed).toBeLessThan(35)
    await control(sb.controlUrl, "/faults", { fail_rate: 0 })
    for (let i = 0; i < 10; i++) expect((await get(sb.baseUrl, "/v1/me", { key: sb.apiKey })).status).toBe(200)
  })

  it("latency_ms delays every answer and holds its concurrency slot meanwhile", async () => {
    await control(sb.controlUrl, "/limits", { concurrency: 1 })
    await control(sb.controlUrl, "/faults", { latency_ms: 300 })
    const [a, b] = await Promise.all([get(sb.baseUrl, "/v1/me", { key: sb.apiKey }), get(sb.baseUrl, "/v1/me", { key: sb.apiKey })])
    expect([a.status, b.status].sort()).toEqual([200, 429])
    const state = await control(sb.controlUrl, "/state", undefined, "GET")
    expect(state.faults.latency_ms).toBe(300)
  })

  it("faults start from the command line option too", async () => {
    const flaky = await startSandbox({ products: 5, failRate: 1, faultKinds: ["503"] })
    try {
      expect((await get(flaky.baseUrl, "/v1/me", { key: flaky.apiKey })).status).toBe(503)
    } finally {
      await flaky.close()
    }
  })

  it("faults never hit the images or the error answers before them", async () => {
    await control(sb.controlUrl, "/faults", { fail_rate: 1, kinds: ["500"] })
    expect((await get(sb.baseUrl, "/v1/me")).status).toBe(401)
    expect((await get(sb.baseUrl, "/nowhere")).status).toBe(404)
  })
})
