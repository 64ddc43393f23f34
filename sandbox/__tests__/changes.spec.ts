// Section 4.3 changes feed, section 3 removal, section 2.5 stock with meta.missing.

import { startSandbox, type Sandbox } from "../server"
import { control, drainChanges, expectError, get } from "./http"

let sb: Sandbox
beforeEach(async () => {
  sb = await startSandbox({ products: 250, seed: 7, rpm: 100_000, concurrency: 50 })
})
afterEach(async () => sb.close())

const ids = (items: any[]) => items.map((i) => String(i.id))

describe("full export (no cursor)", () => {
  it("returns the whole catalog, limit at a time, as active items with cards", async () => {
    const first = await get(sb.baseUrl, "/v1/products/changes?limit=100", { key: sb.apiKey })
    expect(first.json.data.length).toBe(100)
    expect(first.json.meta.has_more).toBe(true)
    const { items, pages } = await drainChanges(sb.baseUrl, sb.apiKey, "", null, 100)
    expect(pages).toBe(3)
    expect(items.length).toBe(250)
    expect(new Set(ids(items)).size).toBe(250)
    for (const item of items) {
      expect(item.status).toBe("active")
      expect(String(item.product.id)).toBe(String(item.id))
    }
  })

  it("the default limit is 100, the maximum 200", async () => {
    expect((await get(sb.baseUrl, "/v1/products/changes", { key: sb.apiKey })).json.data.length).toBe(100)
    expect((await get(sb.baseUrl, "/v1/products/changes?limit=200", { key: sb.apiKey })).json.data.length).toBe(200)
  })

  it("always returns next_cursor, at most 200 characters, URL-safe", async () => {
    let cursor: string | null = null
    for (let i = 0; i < 5; i++) {
      const page: any = await get(sb.baseUrl, `/v1/products/changes?limit=200${cursor ? "&cursor=" + cursor : ""}`, { key: sb.apiKey })
      cursor = page.json.meta.next_cursor
      expect(typeof cursor).toBe("string")
      expect(cursor!.length).toBeLessThanOrEqual(200)
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    }
  })
})

describe("changes after the export", () => {
  it("an empty page still has next_cursor and has_more false; it stays valid", async () => {
    const { cursor } = await drainChanges(sb.baseUrl, sb.apiKey)
    const empty = await get(sb.baseUrl, `/v1/products/changes?cursor=${cursor}`, { key: sb.apiKey })
    expect(empty.json).toEqual({
      data: [],
      meta: { next_cursor: expect.any(String), has_more: false, pricing: expect.any(Object) },
    })
    const again = await get(sb.baseUrl, `/v1/products/changes?cursor=${empty.json.meta.next_cursor}`, { key: sb.apiKey })
    expect(again.json.data).toEqual([])
  })

  it("returns only products changed after the cursor, each once at its latest state, older to newer", async () => {
    const { cursor } = await drainChanges(sb.baseUrl, sb.apiKey)
    const a = await control(sb.controlUrl, "/mutate", { count: 30, kinds: ["price", "stock", "photos", "description", "sizes"] })
    const b = await control(sb.controlUrl, "/mutate", { count: 30, kinds: ["price", "stock"] })
    const changed = new Set([...a.changed, ...b.changed].map(String))
    const { items } = await drainChanges(sb.baseUrl, sb.apiKey, "", cursor, 7)
    expect(new Set(ids(items))).toEqual(changed)
    expect(items.length).toBe(changed.size)
    for (const item of items) {
      expect(item.status).toBe("updated")
      const now = await get(sb.baseUrl, `/v1/products/${item.id}`, { key: sb.apiKey })
      expect(item.product).toEqual(now.json.data)
      expect(item.changed.length).toBeGreaterThan(0)
    }
    // Older to newer: ordered by each product's last change.
    const order = items.map((i) => sb.state.catalog.findAny(String(i.id))!.lastSeq)
    expect([...order].sort((x, y) => x - y)).toEqual(order)
  })

  it("reports every kind of change named by the spec, sync_version increasing", async () => {
    const { cursor, items: exported } = await drainChanges(sb.baseUrl, sb.apiKey)
    const versions = new Map(exported.map((i) => [String(i.id), i.product.sync_version]))
    const seen = new Set<string>()
    for (const kind of ["price", "stock", "sizes", "photos", "description"]) {
      const result = await control(sb.controlUrl, "/mutate", { count: 5, kinds: [kind] })
      expect(result.changed.length).toBeGreaterThan(0)
    }
    const { items } = await drainChanges(sb.baseUrl, sb.apiKey, "", cursor)
    for (const item of items) {
      for (const kind of item.changed) seen.add(kind)
      expect(item.product.sync_version).toBeGreaterThan(versions.get(String(item.id)))
    }
    for (const kind of ["price", "stock", "sizes", "photos", "description"]) expect(seen).toContain(kind)
  })

  it("photo changes change the image list, main image first", async () => {
    const { cursor } = await drainChanges(sb.baseUrl, sb.apiKey)
    const before = new Map<string, any>()
    const result = await control(sb.controlUrl, "/mutate", { count: 10, kinds: ["photos"] })
    for (const id of result.changed) before.set(String(id), null)
    const { items } = await drainChanges(sb.baseUrl, sb.apiKey, "", cursor)
    for (const item of items) {
      expect(item.changed).toEqual(["photos"])
      expect(item.product.images[0].is_main).toBe(true)
      expect(item.product.images.slice(1).every((i: any) => !i.is_main)).toBe(true)
    }
  })

  it("new products appear as created", async () => {
    const { cursor } = await drainChanges(sb.baseUrl, sb.apiKey)
    const result = await control(sb.controlUrl, "/mutate", { count: 3, kinds: ["add"] })
    expect(result.added.length).toBe(3)
    const { items } = await drainChanges(sb.baseUrl, sb.apiKey, "", cursor)
    expect(ids(items)).toEqual(result.added.map(String))
    for (const item of items) {
      expect(item.status).toBe("created")
      expect(item.product.is_new).toBe(true)
    }
  })

  it("removed products appear as {status: removed, id}, then answer 404 and sit in meta.missing", async () => {
    const { cursor, items: exported } = await drainChanges(sb.baseUrl, sb.apiKey)
    const victim = exported[5].product
    await control(sb.controlUrl, "/mutate", { count: 0, remove_ids: [String(victim.id)] })
    const { items } = await drainChanges(sb.baseUrl, sb.apiKey, "", cursor)
    expect(items.length).toBe(1)
    expect(items[0].status).toBe("removed")
    expect(String(items[0].id)).toBe(String(victim.id))
    expect(items[0].product).toBeUndefined()
    expectError(await get(sb.baseUrl, `/v1/products/${victim.id}`, { key: sb.apiKey }), 404, "not_found")
    const stock = await get(sb.baseUrl, `/v1/stock?ids=${victim.id}&skus=${victim.sku}`, { key: sb.apiKey })
    expect(stock.json.data).toEqual([])
    expect(stock.json.meta.missing.map(String)).toEqual([String(victim.id), victim.sku])
    // And it is not in a new full export.
    const fresh = await drainChanges(sb.baseUrl, sb.apiKey)
    expect(ids(fresh.items)).not.toContain(String(victim.id))
  })

  it("a product changed and then removed is reported once, as removed", async () => {
    const { cursor, items: exported } = await drainChanges(sb.baseUrl, sb.apiKey)
    const id = String(exported[9].id)
    await control(sb.controlUrl, "/mutate", { count: 3, ids: [id], kinds: ["price"] })
    await control(sb.controlUrl, "/mutate", { remove_ids: [id] })
    const { items } = await drainChanges(sb.baseUrl, sb.apiKey, "", cursor)
    expect(items.map((i) => [String(i.id), i.status])).toEqual([[id, "removed"]])
  })

  it("changes made during the export are replayed after it", async () => {
    const first = await get(sb.baseUrl, "/v1/products/changes?limit=100", { key: sb.apiKey })
    const exportedSoFar = ids(first.json.data)
    const mutated = await control(sb.controlUrl, "/mutate", { count: 1, ids: [exportedSoFar[0]], kinds: ["price"] })
    expect(mutated.changed.map(String)).toEqual([exportedSoFar[0]])
    const rest = await drainChanges(sb.baseUrl, sb.apiKey, "", first.json.meta.next_cursor)
    const after = await drainChanges(sb.baseUrl, sb.apiKey, "", rest.cursor)
    expect(ids(after.items)).toEqual([exportedSoFar[0]])
  })

  it("the limit is honoured on the changes feed", async () => {
    const { cursor } = await drainChanges(sb.baseUrl, sb.apiKey)
    await control(sb.controlUrl, "/mutate", { count: 40, kinds: ["stock"] })
    const page = await get(sb.baseUrl, `/v1/products/changes?limit=5&cursor=${cursor}`, { key: sb.apiKey })
    expect(page.json.data.length).toBe(5)
    expect(page.json.meta.has_more).toBe(true)
  })
})

describe("cursor errors", () => {
  it("a damaged cursor is invalid_cursor", async () => {
    const page = await get(sb.baseUrl, "/v1/products/changes?limit=10", { key: sb.apiKey })
    const cursor: string = page.json.meta.next_cursor
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1)
    for (const bad of [flip(cursor, 3), flip(cursor, cursor.length - 1), cursor.slice(0, -1), cursor + "A", "garbage", "a.b", "%00"]) {
      expectError(await get(sb.baseUrl, `/v1/products/changes?cursor=${encodeURIComponent(bad)}`, { key: sb.apiKey }), 422, "invalid_cursor")
    }
  })

  it("a cursor used with other pricing parameters is pricing_changed", async () => {
    const page = await get(sb.baseUrl, "/v1/products/changes?limit=10&markup_percent=30", { key: sb.apiKey })
    const cursor = page.json.meta.next_cursor
    expect((await get(sb.baseUrl, `/v1/products/changes?markup_percent=30.0&cursor=${cursor}`, { key: sb.apiKey })).status).toBe(200)
    for (const q of ["", "markup_percent=31", "markup_percent=30&price_calculation=min", "markup_percent=30&discount_percent=5"]) {
      expectError(await get(sb.baseUrl, `/v1/products/changes?${q}&cursor=${cursor}`, { key: sb.apiKey }), 422, "pricing_changed")
    }
    // The default calculation is max: sending it explicitly is the same pricing.
    expect((await get(sb.baseUrl, `/v1/products/changes?markup_percent=30&price_calculation=max&cursor=${cursor}`, { key: sb.apiKey })).status).toBe(200)
  })

  it("after /rotate-cursor-secret every existing cursor is invalid_cursor", async () => {
    const { cursor } = await drainChanges(sb.baseUrl, sb.apiKey)
    await control(sb.controlUrl, "/rotate-cursor-secret")
    expectError(await get(sb.baseUrl, `/v1/products/changes?cursor=${cursor}`, { key: sb.apiKey }), 422, "invalid_cursor")
    expect((await get(sb.baseUrl, "/v1/products/changes", { key: sb.apiKey })).status).toBe(200)
  })
})

describe("/v1/stock (2.5)", () => {
  it("answers stock and prices per product, no photos or descriptions, ids and skus combined", async () => {
    const list = (await get(sb.baseUrl, "/v1/products?limit=5&markup_percent=10", { key: sb.apiKey })).json.data
    const result = await get(sb.baseUrl, `/v1/stock?ids=${list[0].id},${list[1].id},${list[0].id}&skus=${list[2].sku},${list[1].sku},NOPE&markup_percent=10`, {
      key: sb.apiKey,
    })
    expect(result.status).toBe(200)
    expect(result.json.data.map((i: any) => String(i.id))).toEqual([list[0].id, list[1].id, list[2].id].map(String))
    for (const item of result.json.data) {
      expect(item.images).toBeUndefined()
      expect(item.description_uk).toBeUndefined()
      expect(Object.keys(item).sort()).toEqual(["cost_price", "id", "in_stock", "price", "sizes", "sku", "stock", "sync_version"])
    }
    expect(result.json.meta.missing).toEqual(["NOPE"])
  })

  it("lists unknown ids in meta.missing as exact integers", async () => {
    const result = await get(sb.baseUrl, "/v1/stock?ids=9223372036854775806,2", { key: sb.apiKey })
    expect(result.text).toMatch(/"missing":\[[^\]]*9223372036854775806/)
  })
})

describe("/changes-cursor control", () => {
  it("gives a cursor at the end of the change log for the given pricing", async () => {
    await control(sb.controlUrl, "/mutate", { count: 5, kinds: ["stock"] })
    const { cursor } = await control(sb.controlUrl, "/changes-cursor", { query: "markup_percent=15" })
    expect((await get(sb.baseUrl, `/v1/products/changes?markup_percent=15&cursor=${cursor}`, { key: sb.apiKey })).json.data).toEqual([])
    expectError(await get(sb.baseUrl, `/v1/products/changes?cursor=${cursor}`, { key: sb.apiKey }), 422, "pricing_changed")
    const mutated = await control(sb.controlUrl, "/mutate", { count: 2, kinds: ["price"] })
    const { items } = await drainChanges(sb.baseUrl, sb.apiKey, "markup_percent=15", cursor)
    expect(new Set(ids(items))).toEqual(new Set(mutated.changed.map(String)))
  })
})
