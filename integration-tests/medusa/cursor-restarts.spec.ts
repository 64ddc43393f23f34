// the sync's recovery paths in a real Medusa app: malformed cards skipped and
// recorded, a cost basis change (and the API's pricing_changed) recomputing every price,
// invalid_cursor mid-run restarting a full pass whose sweep removes a product whose
// removal event was lost, and removal as draft.
import {
  compareShop,
  configureAndWait,
  PRICING,
  readCatalog,
  readShop,
  runAndWait,
  startCatalogProxy,
  startSyncEnv,
  syncState,
  type SyncEnv,
} from "./sync-helpers"
import { sql } from "./poll-and-query"
import type { ProductCard } from "../../src/catalog-client/schemas"
import { distinctSizes } from "../../src/sync/map-card"

jest.setTimeout(900_000)

// The shop asks the catalog for costs only; price_calculation is what a cursor remembers.
const PRICING_MIN = { ...PRICING, price_calculation: "min" as const }

describe("sync: rejected cards, pricing, invalid cursor with sweep, draft removal", () => {
  let env: SyncEnv
  let proxy: Awaited<ReturnType<typeof startCatalogProxy>>
  beforeAll(async () => {
    env = await startSyncEnv("restarts", { products: 300, seed: 11 })
    proxy = await startCatalogProxy(env.sb.baseUrl)
  })
  afterAll(async () => {
    await proxy?.close()
    await env?.close()
  })

  const catalog = (pricing = PRICING) => readCatalog(env.sb.baseUrl, env.sb.apiKey, pricing)

  it("skips malformed cards, records them on the run with id and reason, and syncs the rest of the page", async () => {
    const broken: string[] = []
    proxy.hooks.rewriteChanges = (body) => {
      // Break the first two cards of the first page: sizes that are not a list, an image without a URL.
      if (broken.length === 0 && body.data.length >= 2) {
        body.data[0].product.sizes = "42,43"
        body.data[1].product.images = [{ is_main: true }]
        broken.push(String(body.data[0].id), String(body.data[1].id))
      }
      return body
    }
    const { run } = await configureAndWait(env, { base_url: proxy.url, api_key: env.sb.apiKey, markup_percent: "30" })
    proxy.hooks.rewriteChanges = undefined
    expect(run).toMatchObject({ status: "succeeded", created: 298, skipped: 2 })
    expect(run.rejected_items.map((r: { id: string }) => r.id).sort()).toEqual([...broken].sort())
    for (const r of run.rejected_items) expect(r.reason).toMatch(/sizes|images/)
    const cards = await catalog()
    const shop = await readShop(env.db.url)
    expect(
      compareShop(
        cards.filter((c) => !broken.includes(c.id)),
        shop
      )
    ).toEqual([])
    for (const id of broken) expect(shop.has(id)).toBe(false)

    // The next full pass brings them in once the catalog serves them well.
    const full = await runAndWait(env, "full")
    expect(full).toMatchObject({ status: "succeeded", created: 2, unchanged: 298, skipped: 0 })
    expect(compareShop(cards, await readShop(env.db.url))).toEqual([])
  })

  it("a cost basis change resyncs every price; a cursor refused with pricing_changed restarts without cursor", async () => {
    const oldCursor = (await syncState(env)).cursor as string
    // The products whose variants' prices the cheapest supplier's cost moves (the API's own prices for the
    // same markup): a card's sizes, each size once, or the card's own price when it has none.
    const pricesText = (c: ProductCard) => {
      const sizes = distinctSizes(c)
      return JSON.stringify(sizes.length ? sizes.map((s) => [s.size.trim(), s.price, s.old_price]) : [c.price, c.old_price])
    }
    const atMax = new Map((await catalog()).map((c) => [c.id, pricesText(c)]))
    const moved = (await catalog(PRICING_MIN)).filter((c) => atMax.get(c.id) !== pricesText(c)).length
    expect(moved).toBeGreaterThan(0)
    const { saved, run } = await configureAndWait(env, { price_calculation: "min" })
    expect(saved.pricing_changed).toBe(true)
    expect(run).toMatchObject({ status: "succeeded", mode: "full", created: 0, removed: 0 })
    // Every product is read again; exactly those whose prices the new costs move are rewritten.
    expect(run.updated + run.unchanged).toBe(300)
    expect(run.updated).toBe(moved)
    const cards = await catalog(PRICING_MIN)
    expect(compareShop(cards, await readShop(env.db.url))).toEqual([])

    // The stored cursor was made with price_calculation max while the run asks with min: the API refuses it.
    const state = await syncState(env)
    await sql(env.db.url, "update mcs_sync_state set cursor = $1 where id = $2", [oldCursor, state.id])
    const restarted = await runAndWait(env, "changes")
    expect(restarted).toMatchObject({ status: "succeeded", unchanged: 300, updated: 0 })
    expect(restarted.progress.restarts).toBe(1)
    expect(compareShop(cards, await readShop(env.db.url))).toEqual([])
    expect((await syncState(env)).cursor).not.toBe(oldCursor)
  })

  it("invalid_cursor mid-run restarts a full pass whose sweep removes a product whose removal was lost", async () => {
    // ~250 changed products (two pages of changes), then one removal: the last item of the feed.
    env.sb.control.mutate({ count: 400, kinds: ["price", "stock"] })
    const lost = (await catalog(PRICING_MIN))[17].id
    env.sb.control.mutate({ remove_ids: [lost] })
    let changesRequests = 0
    proxy.hooks.beforeForward = (url) => {
      if (!url.startsWith("/v1/products/changes") || !url.includes("cursor=")) return
      // The run's second page: every cursor the run holds becomes invalid_cursor.
      if (++changesRequests === 2) env.sb.control.rotateCursorSecret()
    }
    const run = await runAndWait(env, "changes")
    proxy.hooks.beforeForward = undefined
    expect(changesRequests).toBeGreaterThanOrEqual(2)
    expect(run).toMatchObject({ status: "succeeded", swept: 1 })
    expect(run.progress.restarts).toBe(1)
    const cards = await catalog(PRICING_MIN)
    expect(cards.some((c) => c.id === lost)).toBe(false)
    const shop = await readShop(env.db.url)
    expect(shop.has(lost)).toBe(false)
    expect(compareShop(cards, shop)).toEqual([])
    const mapRow = (await sql(env.db.url, "select status, product_id from mcs_product_map where catalog_id = $1", [lost]))[0]
    expect(mapRow).toEqual({ status: "removed", product_id: null })
  })

  it("with removal_mode draft a removed product stays as draft", async () => {
    await configureAndWait(env, { removal_mode: "draft" })
    const victim = (await catalog(PRICING_MIN))[3].id
    env.sb.control.mutate({ remove_ids: [victim] })
    const run = await runAndWait(env, "changes")
    expect(run).toMatchObject({ status: "succeeded", removed: 1 })
    const shop = await readShop(env.db.url)
    expect(shop.get(victim)?.status).toBe("draft")
    expect(compareShop(await catalog(PRICING_MIN), shop, { removalMode: "draft" })).toEqual([])
  })

  it("a new sales channel in the settings puts every product in it on the next full pass", async () => {
    const created = await env.app.admin("/admin/sales-channels", { body: { name: "Second storefront" } })
    expect(created.status).toBe(200)
    const channelId = created.body.sales_channel.id as string
    await configureAndWait(env, { sales_channel_id: channelId })
    const run = await runAndWait(env, "full")
    expect(run.status).toBe("succeeded")
    const cards = await catalog(PRICING_MIN)
    const shop = await readShop(env.db.url)
    expect(compareShop(cards, shop, { removalMode: "draft" })).toEqual([])
    for (const card of cards) expect(shop.get(card.id)?.salesChannelIds).toContain(channelId)
  })
})
