// The churn kinds of /mutate: sizes that leave and come back, products back on sale, big price
// moves, photos reordered; and setSizes for exact size sequences. Checked over real HTTP.

import { startSandbox, type Sandbox } from "../server"
import { control, get } from "./http"

let sb: Sandbox
beforeEach(async () => {
  sb = await startSandbox({ products: 200, seed: 11, rpm: 100_000, concurrency: 50 })
})
afterEach(async () => sb.close())

const card = async (id: string) => (await get(sb.baseUrl, `/v1/products/${id}?markup_percent=30`, { key: sb.apiKey })).json?.data
const changesCursor = async () => (await control(sb.controlUrl, "/changes-cursor", { query: "markup_percent=30" })).cursor as string
const changesAfter = async (cursor: string) =>
  (await get(sb.baseUrl, `/v1/products/changes?limit=200&markup_percent=30&cursor=${cursor}`, { key: sb.apiKey })).json.data as any[]

describe("churn mutations", () => {
  it("a size that leaves comes back later, at the price it had", async () => {
    const product = sb.state.catalog.liveProducts().find((p) => p.sizes.length >= 3)!
    const id = product.idText
    const before = await card(id)
    const left = await control(sb.controlUrl, "/mutate", { count: 1, kinds: ["size_leave"], ids: [id] })
    expect(left.changed.map(String)).toEqual([id])
    const after = await card(id)
    expect(after.sizes.length).toBe(before.sizes.length - 1)
    const gone = before.sizes.find((s: any) => !after.sizes.some((a: any) => a.size === s.size))
    const back = await control(sb.controlUrl, "/mutate", { count: 1, kinds: ["size_return"], ids: [id] })
    expect(back.changed.map(String)).toEqual([id])
    const again = await card(id)
    expect(again.sizes.map((s: any) => s.size)).toEqual(before.sizes.map((s: any) => s.size))
    const returned = again.sizes.find((s: any) => s.size === gone.size)
    expect(returned.cost_price).toBe(gone.cost_price)
    expect(returned.stock).toBeGreaterThan(0)
  })

  it("size_return does nothing for a product that lost no size", async () => {
    const id = sb.state.catalog.liveProducts().find((p) => p.sizes.length >= 2)!.idText
    const result = await control(sb.controlUrl, "/mutate", { count: 3, kinds: ["size_return"], ids: [id] })
    expect(result.changed).toEqual([])
  })

  it("setSizes follows an exact sequence: [40, 41] → [42] → [40, 41]", async () => {
    const product = sb.state.catalog.liveProducts().find((p) => p.sizes.includes("40") && p.sizes.includes("41"))!
    const id = product.idText
    const sizes = async () => (await card(id)).sizes.map((s: any) => s.size)
    sb.state.mutator.setSizes(id, ["40", "41"])
    expect(await sizes()).toEqual(["40", "41"])
    const prices = (await card(id)).sizes.map((s: any) => s.price)
    sb.state.mutator.setSizes(id, ["42"])
    expect(await sizes()).toEqual(["42"])
    sb.state.mutator.setSizes(id, ["40", "41"])
    expect(await sizes()).toEqual(["40", "41"])
    expect((await card(id)).sizes.map((s: any) => s.price)).toEqual(prices)
  })

  it("a product taken off sale comes back on sale (restore), served again as updated", async () => {
    const id = sb.state.catalog.liveProducts()[5].idText
    await control(sb.controlUrl, "/mutate", { remove_ids: [id] })
    expect(await card(id)).toBeUndefined()
    const cursor = await changesCursor()
    const restored = await control(sb.controlUrl, "/mutate", { count: 1, kinds: ["restore"] })
    expect(restored.changed.map(String)).toEqual([id])
    expect(String((await card(id)).id)).toBe(id)
    const items = await changesAfter(cursor)
    expect(items.map((i) => [String(i.id), i.status, i.changed])).toEqual([[id, "updated", ["status"]]])
    // Nothing left to restore.
    expect((await control(sb.controlUrl, "/mutate", { count: 1, kinds: ["restore"] })).changed).toEqual([])
  })

  it("price_swing moves prices by 20 % or more; photo_order keeps the photos in another order", async () => {
    const product = sb.state.catalog.liveProducts().find((p) => p.images.length >= 3 && p.suppliers.every((s) => s.baseCost !== null))!
    const id = product.idText
    const before = await card(id)
    await control(sb.controlUrl, "/mutate", { count: 1, kinds: ["photo_order"], ids: [id] })
    const reordered = await card(id)
    const urls = (c: any) => c.images.map((i: any) => i.url)
    expect(urls(reordered)).not.toEqual(urls(before))
    expect([...urls(reordered)].sort()).toEqual([...urls(before)].sort())
    expect(reordered.images[0].is_main).toBe(true)
    let moved = false
    for (let i = 0; i < 5 && !moved; i++) {
      await control(sb.controlUrl, "/mutate", { count: 1, kinds: ["price_swing"], ids: [id] })
      const after = await card(id)
      moved =
        after.sizes.some((s: any, k: number) => {
          const a = Number(s.cost_price)
          const b = Number(before.sizes[k]?.cost_price)
          return Math.abs(a - b) / b >= 0.15
        }) || Math.abs(Number(after.cost_price) - Number(before.cost_price)) / Number(before.cost_price) >= 0.15
    }
    expect(moved).toBe(true)
  })

  it('"all" draws every kind, deterministically with the seed; the default kinds are unchanged', async () => {
    const twin = await startSandbox({ products: 200, seed: 11 })
    try {
      const a = JSON.stringify(sb.control.mutate({ count: 300, kinds: "all" }), (_k, v) => (typeof v === "bigint" ? v.toString() : v))
      const b = JSON.stringify(twin.control.mutate({ count: 300, kinds: "all" }), (_k, v) => (typeof v === "bigint" ? v.toString() : v))
      expect(a).toBe(b)
      const kinds = new Set(sb.state.catalog.log.flatMap((e) => e.kinds))
      for (const k of ["price", "stock", "sizes", "photos", "description", "status"]) expect(kinds).toContain(k)
      // Some product came back on sale: it is live after a status change that was not its removal.
      const back = sb.state.catalog.liveProducts().filter((p) => p.changes.some((c) => c.kinds.includes("status")))
      expect(back.length).toBeGreaterThan(0)
    } finally {
      await twin.close()
    }
  })
})
