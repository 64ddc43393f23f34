// Cards that fail validation are rejected one by one; their page still arrives. The sandbox only
// serves valid cards, so this file runs a tiny loopback server for the malformed shapes.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { CatalogClient, InvalidResponseError, MemoryRateLimiter } from "../index"

const good = (id: string) =>
  `{"id":${id},"sku":"S-${id}","name":"Shoe","cost_price":"10.00","in_stock":true,"sizes":[],` +
  `"images":[{"url":"http://x/1.png","is_main":true}],"sync_version":1,"unknown_new_field":[1,2,3]}`

const CHANGES = `{"data":[
  {"status":"active","id":9223372036854775807,"product":${good("9223372036854775807")}},
  {"status":"active","id":77,"product":{"id":77,"sku":"S-77","name":"Broken","cost_price":10.5,"in_stock":true,
    "sizes":[{"size":"40"}],"images":[],"sync_version":1}},
  {"status":"active","id":9223372036854775808,"product":${good("9223372036854775808")}},
  {"status":"removed","id":12},
  {"status":"active","id":9007199254740993,"product":${good("9007199254740993")}}
],"meta":{"next_cursor":"c1","has_more":false,"pricing":{"price_calculation":"max"}}}`

const PRODUCTS = `{"data":[${good("1")},{"id":2,"sku":"S-2"},${good("3")}],"meta":{"next_cursor":null,"has_more":false}}`

const STOCK = `{"data":[{"id":5,"sku":"S-5","in_stock":true,"stock":2,"cost_price":"1.00","sizes":[]},
  {"id":6,"sku":"S-6","in_stock":"maybe","sizes":[]}],"meta":{"missing":[9223372036854775806,"GONE"]}}`

describe("rejected items", () => {
  let server: Server
  let client: CatalogClient

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname
      const body =
        path === "/v1/products/changes"
          ? CHANGES
          : path === "/v1/products"
            ? PRODUCTS
            : path === "/v1/stock"
              ? STOCK
              : path === "/v1/products/4"
                ? `{"data":{"id":4,"sku":"S-4"}}`
                : null
      res.writeHead(body ? 200 : 404, { "content-type": "application/json", "x-trace-id": "t-1", "x-ratelimit-remaining": "59" })
      res.end(body ?? `{"error":{"code":"not_found","message":"no","request_id":"t-1","details":null}}`)
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    client = new CatalogClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: "k",
      // discoverLimits stays on: this server has no /v1/me (404), so the defaults are kept.
      limiter: new MemoryRateLimiter({ requestsPerMinute: 1000 }),
    })
  })
  afterAll(async () => {
    await client.close()
    await new Promise((resolve) => server.close(resolve))
  })

  it("a changes page keeps its valid items and lists the rejected ones with id and reason", async () => {
    const page = await client.getChangesPage()
    expect(page.items.map((i) => i.id)).toEqual(["9223372036854775807", "12", "9007199254740993"])
    expect(page.items[0]).not.toHaveProperty("product.unknown_new_field")
    expect(page.rejected).toHaveLength(2)
    expect(page.rejected[0]).toMatchObject({ id: "77" })
    expect(page.rejected[0].reason).toMatch(/product\.sizes\.0\.stock/)
    // An id beyond int64 is not readable as an id: rejected with id null, the raw digits kept.
    expect(page.rejected[1].id).toBeNull()
    expect(page.rejected[1].raw).toContain("9223372036854775808")
    expect(page.nextCursor).toBe("c1")
    expect(client.limiter.limits).toEqual({ requestsPerMinute: 1000, maxConcurrent: 3 })
  })

  it("product pages and stock answers reject per item too", async () => {
    const pages = []
    for await (const page of client.listProducts()) pages.push(page)
    expect(pages).toHaveLength(1)
    expect(pages[0].items.map((c) => c.id)).toEqual(["1", "3"])
    expect(pages[0].rejected).toEqual([expect.objectContaining({ id: "2" })])

    const stock = await client.getStock({ ids: ["5", "6", "9223372036854775806"], skus: ["GONE"] })
    expect(stock.items.map((i) => i.id)).toEqual(["5"])
    expect(stock.rejected.map((r) => r.id)).toEqual(["6"])
    expect(stock.missing).toEqual(["9223372036854775806", "GONE"])
  })

  it("a single product that fails validation is an InvalidResponseError with the request id", async () => {
    const error = await client.getProduct(4).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidResponseError)
    expect(error.requestId).toBe("t-1")
    expect(error.message).toMatch(/product card/)
  })
})
