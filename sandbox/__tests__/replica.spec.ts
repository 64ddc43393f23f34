// The feed's promise, end to end: a client that follows the changes feed (export, then changes,
// with mutations of every kind happening in between, even mid-export) ends with exactly the
// catalog the list endpoint serves.

import { startSandbox, type Sandbox } from "../server"
import { control, get } from "./http"

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ products: 500, seed: 11, rpm: 100_000, concurrency: 50 })
})
afterAll(async () => sb.close())

const PRICING = "price_calculation=avg&markup_percent=22.5&discount_percent=15"

async function truth(): Promise<Map<string, any>> {
  const cards = new Map<string, any>()
  let cursor: string | null = null
  for (;;) {
    const page: any = await get(sb.baseUrl, `/v1/products?limit=200&${PRICING}${cursor ? "&cursor=" + cursor : ""}`, { key: sb.apiKey })
    for (const card of page.json.data) cards.set(String(card.id), card)
    if (!page.json.meta.has_more) return cards
    cursor = page.json.meta.next_cursor
  }
}

it("a follower of the feed converges to the catalog, through mutations of every kind", async () => {
  const replica = new Map<string, any>()
  let cursor: string | null = null
  let hasMore = true
  let round = 0
  // Follow while the world changes: pages of 37, 25 random mutations after every other page.
  while (round < 60) {
    const page: any = await get(sb.baseUrl, `/v1/products/changes?limit=37&${PRICING}${cursor ? "&cursor=" + cursor : ""}`, { key: sb.apiKey })
    expect(page.status).toBe(200)
    for (const item of page.json.data) {
      if (item.status === "removed") replica.delete(String(item.id))
      else replica.set(String(item.id), item.product)
    }
    cursor = page.json.meta.next_cursor
    hasMore = page.json.meta.has_more
    if (round % 2 === 0) await control(sb.controlUrl, "/mutate", { count: 25 })
    round++
  }
  // The world stops; catch up.
  while (hasMore || round < 62) {
    const page: any = await get(sb.baseUrl, `/v1/products/changes?limit=200&${PRICING}&cursor=${cursor}`, { key: sb.apiKey })
    for (const item of page.json.data) {
      if (item.status === "removed") replica.delete(String(item.id))
      else replica.set(String(item.id), item.product)
    }
    cursor = page.json.meta.next_cursor
    hasMore = page.json.meta.has_more
    round++
  }
  const expected = await truth()
  const stats = await control(sb.controlUrl, "/state", undefined, "GET")
  expect(stats.removed).toBeGreaterThan(0)
  expect(stats.change_log_length).toBeGreaterThan(500)
  expect(replica.size).toBe(expected.size)
  for (const [id, card] of expected) expect(replica.get(id)).toEqual(card)
})
