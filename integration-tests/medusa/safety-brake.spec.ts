// The safety brake in a real Medusa app: the sandbox removes 30 % of the catalog; the changes
// run holds the removals and pauses after its last page (nothing removed, checked in Medusa's
// product table) with a preview,
// makes no API request while paused, and waits for the admin. Confirming applies exactly the
// previewed removals and records the admin's user id; discarding keeps the shop, and neither the
// next changes run nor a full pass (its sweep) proposes the same removals again. The same for a
// feed that drops 30 % of the products' prices to a tenth: checked on Medusa's price tables.
// And for a full pass whose export omits 30 % of the products: its sweep pauses the same way.
// Size: SAFETY_BRAKE_PRODUCTS (default 150, at most 668: 30 % of it must fit on one page of changes).
import { sql, waitForRun } from "./poll-and-query"
import { compareShop, configureAndWait, readCatalog, readShop, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(1_200_000)

const PRODUCTS = Number(process.env.SAFETY_BRAKE_PRODUCTS ?? 150)
/** Items a changes page holds (the plugin asks for 200; the API serves no more). */
const CHANGES_PAGE_SIZE = 200
// The spec's premise: the 30 % it removes fit on one page of changes, so the first page is the one
// past the brake's threshold. Past that, earlier pages stay below it and are written (as the
// brake is meant to), and every "nothing written" check here would fail.
if (Math.round(PRODUCTS * 0.3) > CHANGES_PAGE_SIZE) {
  throw new Error(`SAFETY_BRAKE_PRODUCTS=${PRODUCTS}: 30 % of the shop must fit on one page of changes (${CHANGES_PAGE_SIZE} items), so at most 668 products`)
}

/** Every price row of the shop's variants (base and price lists), exact, in one comparable list. */
async function priceRows(dbUrl: string): Promise<string[]> {
  const rows = await sql(
    dbUrl,
    `select l.variant_id, coalesce(p.price_list_id, '') as list, p.currency_code, p.raw_amount->>'value' as amount
       from product_variant_price_set l join price p on p.price_set_id = l.price_set_id
      where l.deleted_at is null and p.deleted_at is null order by 1, 2, 3`
  )
  return rows.map((r) => `${r.variant_id}/${r.list}/${r.currency_code}:${r.amount}`)
}

async function titlesByCatalogId(dbUrl: string): Promise<Map<string, string>> {
  const rows = await sql(dbUrl, "select external_id, title from product where deleted_at is null and metadata->>'catalog_sync' = 'true'")
  return new Map(rows.map((r) => [r.external_id as string, r.title as string]))
}

async function liveCatalogIds(dbUrl: string): Promise<string[]> {
  const rows = await sql(dbUrl, "select external_id from product where deleted_at is null and metadata->>'catalog_sync' = 'true'")
  return rows.map((r) => r.external_id as string).sort()
}

describe("safety brake: a feed that removes 30 % of the shop pauses for the admin", () => {
  let env: SyncEnv
  let all: string[]
  const requests = () => (env.sb.control.stats() as { requests: number }).requests

  async function startPausedRun(removeIds: string[]) {
    env.sb.control.mutate({ remove_ids: removeIds })
    const started = await env.app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(started.status).toBe(202)
    return waitForRun(env.app, started.body.run.id, ["paused", "succeeded", "failed", "interrupted"], 300_000)
  }

  beforeAll(async () => {
    env = await startSyncEnv("safety-brake", { products: PRODUCTS, seed: 31 })
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS })
    all = await liveCatalogIds(env.db.url)
    expect(all).toHaveLength(PRODUCTS)
  })
  afterAll(async () => {
    await env?.close()
  })

  it("pauses with a preview, removes nothing and asks nothing of the API while paused; confirm applies it exactly", async () => {
    const victims = all.slice(0, Math.round(PRODUCTS * 0.3))
    const paused = await startPausedRun(victims)
    expect(paused).toMatchObject({ status: "paused", removed: 0 })
    expect(paused.brake.reasons.map((r: { code: string }) => r.code)).toEqual(["removals"])
    expect(paused.brake.preview.removals).toMatchObject({ count: victims.length, share_percent: ((victims.length / PRODUCTS) * 100).toFixed(2) })
    expect(paused.brake.preview.removals.sample.length).toBe(Math.min(20, victims.length))
    expect([...paused.brake.removal_ids].sort()).toEqual(victims)
    expect(await liveCatalogIds(env.db.url)).toEqual(all)
    // The preview names the products as the shop does.
    const titles = await titlesByCatalogId(env.db.url)
    for (const r of paused.brake.preview.removals.sample) expect(r.title).toBe(titles.get(r.catalog_id))

    // /status shows the pause (its account panel may ask /v1/me once, cached: not a sync request).
    const status = await env.app.admin("/admin/catalog-sync/status")
    expect(status.body).toMatchObject({ state: "paused", paused: { run_id: paused.id, brake: { preview: { removals: { count: victims.length } } } } })
    // The held products are still in the shop (products_synced) but no longer sold by the catalog:
    // the kept-products answer counts them as waiting to be removed, so the sync page's split never
    // counts them as what the catalog still sells.
    expect(status.body.products_synced).toBe(PRODUCTS)
    // Held at the pause: they wait for the admin's answer, nothing is decided (issue 43).
    expect((await env.app.admin("/admin/catalog-sync/kept-products")).body.counts).toEqual({
      discarded: 0,
      open_order: 0,
      total: 0,
      removing: victims.length,
      awaiting_answer: victims.length,
      held_until_run_end: 0,
    })
    // While paused: "Sync now" answers with the paused run, starts nothing, asks the API nothing.
    const before = requests()
    const again = await env.app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(again.body).toMatchObject({ already_running: true, run: { id: paused.id, status: "paused" } })
    await new Promise((r) => setTimeout(r, 2_000))
    expect(requests()).toBe(before)

    const me = await env.app.admin("/admin/users/me")
    const confirmed = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/confirm`, { body: {} })
    expect(confirmed.status).toBe(200)
    const continued = await waitForRun(env.app, confirmed.body.continued_by.id, undefined, 300_000)
    expect(continued).toMatchObject({ status: "succeeded", removed: victims.length })
    expect(await liveCatalogIds(env.db.url)).toEqual(all.filter((id) => !victims.includes(id)))
    // Removed: nothing waits any more.
    expect((await env.app.admin("/admin/catalog-sync/kept-products")).body.counts).toMatchObject({ total: 0, removing: 0 })
    const history = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}`)
    expect(history.body.run).toMatchObject({ status: "paused", brake_resolution: { action: "confirmed", user_id: me.body.user.id, removals: victims.length } })
    // Answered once only.
    expect((await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/confirm`, { body: {} })).status).toBe(409)
  })

  it("discard keeps the shop; the next run and a full pass do not propose the same removals again", async () => {
    const shop = await liveCatalogIds(env.db.url)
    const victims = shop.slice(0, Math.ceil(shop.length * 0.3))
    const paused = await startPausedRun(victims)
    expect(paused).toMatchObject({ status: "paused", removed: 0 })
    const discarded = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/discard`, { body: {} })
    expect(discarded.status).toBe(200)
    const continued = await waitForRun(env.app, discarded.body.continued_by.id, undefined, 300_000)
    expect(continued).toMatchObject({ status: "succeeded", removed: 0 })
    expect(await liveCatalogIds(env.db.url)).toEqual(shop)

    const next = await runAndWait(env, "changes")
    expect(next).toMatchObject({ status: "succeeded", removed: 0 })
    const full = await runAndWait(env, "full")
    expect(full).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    expect(await liveCatalogIds(env.db.url)).toEqual(shop)
    // The catalog no longer serves them; the shop keeps them by the admin's say.
    const served = new Set((await readCatalog(env.sb.baseUrl, env.sb.apiKey)).map((c) => c.id))
    for (const id of victims) expect(served.has(id)).toBe(false)

    // A later removal's share is of what the catalog still sells: the kept products are no longer its.
    const stillSold = shop.filter((id) => !victims.includes(id))
    const more = stillSold.slice(0, Math.ceil(stillSold.length * 0.35))
    const second = await startPausedRun(more)
    expect(second).toMatchObject({ status: "paused", removed: 0 })
    // The discarded ones are kept; the newly held ones wait to be removed: neither is counted twice.
    expect((await env.app.admin("/admin/catalog-sync/kept-products")).body.counts).toEqual({
      discarded: victims.length,
      open_order: 0,
      total: victims.length,
      removing: more.length,
      awaiting_answer: more.length,
      held_until_run_end: 0,
    })
    expect(second.brake.preview.removals).toMatchObject({ count: more.length, share_percent: ((more.length / stillSold.length) * 100).toFixed(2) })
    const discardedAgain = await env.app.admin(`/admin/catalog-sync/runs/${second.id}/discard`, { body: {} })
    expect(discardedAgain.status).toBe(200)
    expect(await waitForRun(env.app, discardedAgain.body.continued_by.id, undefined, 300_000)).toMatchObject({ status: "succeeded", removed: 0 })
    expect(await liveCatalogIds(env.db.url)).toEqual(shop)
  })
  /** The shop's products the catalog still serves, and which of them to mark down (30 %). */
  async function dropVictims(skip: Set<string>) {
    const cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    const served = new Set(cards.map((c) => c.id))
    const shop = (await liveCatalogIds(env.db.url)).filter((id) => served.has(id))
    // Marked down: products with a price (a card nobody can buy has none to lower).
    const priced = new Set(cards.filter((c) => c.price != null || c.sizes.some((sz) => sz.price != null)).map((c) => c.id))
    return shop.filter((id) => !skip.has(id) && priced.has(id)).slice(0, Math.ceil(shop.length * 0.3))
  }

  async function startPricePausedRun(victims: string[]) {
    const scaled = env.sb.control.mutate({ scale_ids: victims, scale_percent: 10 }) as { changed: bigint[] }
    expect(scaled.changed.map(String).sort()).toEqual([...victims].sort())
    const started = await env.app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(started.status).toBe(202)
    return waitForRun(env.app, started.body.run.id, ["paused", "succeeded", "failed", "interrupted"], 300_000)
  }

  /** The shop as the catalog serves it now (products the admin kept by discarding a removal left out). */
  async function shopMatchesCatalog() {
    const cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    const served = new Set(cards.map((c) => c.id))
    const shop = new Map([...(await readShop(env.db.url))].filter(([id]) => served.has(id)))
    return compareShop(cards, shop)
  }

  const dropped = new Set<string>()

  it("a feed that drops 30 % of the prices to a tenth pauses with before → after and changes no price; confirm applies exactly the catalog's prices", async () => {
    expect(await shopMatchesCatalog()).toEqual([])
    const prices = await priceRows(env.db.url)
    const victims = await dropVictims(dropped)
    victims.forEach((id) => dropped.add(id))
    const paused = await startPricePausedRun(victims)
    expect(paused).toMatchObject({ status: "paused", updated: 0 })
    expect(paused.brake.reasons.map((r: { code: string }) => r.code)).toEqual(["price_drops"])
    expect(paused.brake.preview.steep_drops.count).toBeGreaterThanOrEqual(victims.length)
    expect(Number(paused.brake.preview.steep_drops.share_percent)).toBeGreaterThan(10)
    const titles = await titlesByCatalogId(env.db.url)
    for (const d of paused.brake.preview.steep_drops.sample) {
      expect(victims).toContain(d.catalog_id)
      expect(d.title).toBe(titles.get(d.catalog_id))
      expect(typeof d.size).toBe("string")
      // A tenth of the cost (rounded to kopecks), so about a 90 % drop.
      expect(Number(d.drop_percent)).toBeGreaterThan(85)
      expect(Number(d.to)).toBeLessThan(Number(d.from))
    }
    expect(
      Object.keys(paused.brake.price_drops)
        .map((k) => k.split(":")[0])
        .every((id) => victims.includes(id))
    ).toBe(true)
    // Nothing was written: Medusa's price rows are as they were.
    expect(await priceRows(env.db.url)).toEqual(prices)
    expect((await env.app.admin("/admin/catalog-sync/status")).body).toMatchObject({ state: "paused", paused: { run_id: paused.id } })
    // The run history lists it as paused (the admin labels it "Paused", not "Queued").
    const history = await env.app.admin("/admin/catalog-sync/history?status=paused")
    expect(history.status).toBe(200)
    expect(history.body.rows.find((r: { type: string; run?: { id: string } }) => r.run?.id === paused.id)).toMatchObject({
      type: "run",
      run: { status: "paused" },
    })

    const confirmed = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/confirm`, { body: {} })
    expect(confirmed.status).toBe(200)
    const continued = await waitForRun(env.app, confirmed.body.continued_by.id, undefined, 300_000)
    expect(continued).toMatchObject({ status: "succeeded", removed: 0 })
    expect(continued.updated).toBeGreaterThanOrEqual(victims.length)
    expect(await shopMatchesCatalog()).toEqual([])
    expect(await priceRows(env.db.url)).not.toEqual(prices)
    const answered = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}`)
    expect(answered.body.run.brake_resolution).toMatchObject({ action: "confirmed", price_drops: Object.keys(paused.brake.price_drops).length })
  })

  it("discarding a price drop keeps every price; neither the next run nor a full pass proposes it again", async () => {
    const prices = await priceRows(env.db.url)
    const victims = await dropVictims(dropped)
    victims.forEach((id) => dropped.add(id))
    const paused = await startPricePausedRun(victims)
    expect(paused).toMatchObject({ status: "paused", updated: 0 })
    expect(paused.brake.reasons.map((r: { code: string }) => r.code)).toEqual(["price_drops"])
    expect(await priceRows(env.db.url)).toEqual(prices)

    const discarded = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/discard`, { body: {} })
    expect(discarded.status).toBe(200)
    const continued = await waitForRun(env.app, discarded.body.continued_by.id, undefined, 300_000)
    expect(continued).toMatchObject({ status: "succeeded" })
    expect(await priceRows(env.db.url)).toEqual(prices)

    const next = await runAndWait(env, "changes")
    expect(next).toMatchObject({ status: "succeeded" })
    expect(next.brake ?? null).toBeNull()
    const full = await runAndWait(env, "full")
    expect(full).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    expect(full.brake ?? null).toBeNull()
    expect(await priceRows(env.db.url)).toEqual(prices)
    // The catalog does serve the lower prices: the shop keeps its own by the admin's say.
    expect((await shopMatchesCatalog()).filter((p) => p.includes(": prices ")).length).toBeGreaterThanOrEqual(victims.length)
  })
  it("drops on products whose prices the shop locked are not judged: they would write no price, so nothing pauses", async () => {
    const prices = await priceRows(env.db.url)
    const victims = await dropVictims(dropped)
    victims.forEach((id) => dropped.add(id))
    const mapped = await sql(env.db.url, "select catalog_id, product_id from mcs_product_map where catalog_id = any($1)", [victims])
    expect(mapped).toHaveLength(victims.length)
    for (const { product_id } of mapped) {
      expect((await env.app.admin(`/admin/catalog-sync/products/${product_id}/locks`, { body: { fields: ["prices"], locked: true } })).status).toBe(200)
    }
    const run = await startPricePausedRun(victims)
    expect(run).toMatchObject({ status: "succeeded" })
    expect(run.brake ?? null).toBeNull()
    // The locked products kept their prices, and no other price moved.
    expect(await priceRows(env.db.url)).toEqual(prices)
  })

  /** 30 % of the shop's catalog products, among those the catalog still serves. */
  async function sweepVictims() {
    const served = new Set((await readCatalog(env.sb.baseUrl, env.sb.apiKey)).map((c) => c.id))
    const active = await sql(env.db.url, "select count(*)::int as n from mcs_product_map where status = 'active' and deleted_at is null")
    const shop = await liveCatalogIds(env.db.url)
    const victims = shop.filter((id) => served.has(id)).slice(-Math.ceil(active[0].n * 0.3))
    expect(victims.length / active[0].n).toBeGreaterThan(0.2)
    return { shop, victims }
  }

  /** The catalog drops the victims, then a full pass runs: its export omits them and its sweep would remove them. */
  async function startSweepPausedRun(victims: string[]) {
    env.sb.control.mutate({ remove_ids: victims })
    const started = await env.app.admin("/admin/catalog-sync/runs", { body: { mode: "full" } })
    expect(started.status).toBe(202)
    return waitForRun(env.app, started.body.run.id, ["paused", "succeeded", "failed", "interrupted"], 300_000)
  }

  it("a full pass whose export omits 30 % of the products pauses before its sweep, removes nothing, and confirm sweeps exactly those", async () => {
    const { shop, victims } = await sweepVictims()
    // New products too, so the export spans pages and the paused pass has stored a cursor.
    const added = (env.sb.control.mutate({ count: 250, kinds: ["add"] }) as { added: bigint[] }).added.map(String)
    expect(added).toHaveLength(250)
    const paused = await startSweepPausedRun(victims)
    // Its pages were written (the new products created); only the sweep waits.
    expect(paused).toMatchObject({ status: "paused", removed: 0, swept: 0, created: added.length })
    expect(paused.pages).toBeGreaterThanOrEqual(2)
    expect(paused.brake.reasons.map((r: { code: string }) => r.code)).toEqual(["removals"])
    expect(paused.brake.preview.removals.count).toBe(victims.length)
    expect([...paused.brake.removal_ids].sort()).toEqual([...victims].sort())
    const titles = await titlesByCatalogId(env.db.url)
    expect(paused.brake.preview.removals.sample.length).toBe(Math.min(20, victims.length))
    for (const r of paused.brake.preview.removals.sample) {
      expect(victims).toContain(r.catalog_id)
      expect(r.title).toBe(titles.get(r.catalog_id))
    }
    // Nothing was removed in Medusa, and nothing is asked of the API while paused.
    expect(await liveCatalogIds(env.db.url)).toEqual([...shop, ...added].sort())
    const before = requests()
    await new Promise((r) => setTimeout(r, 2_000))
    expect(requests()).toBe(before)

    const confirmed = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/confirm`, { body: {} })
    expect(confirmed.status).toBe(200)
    const continued = await waitForRun(env.app, confirmed.body.continued_by.id, undefined, 300_000)
    // It applies the held sweep first, then reads on from the pass's last cursor (stored: the sweep was held).
    expect(continued).toMatchObject({ status: "succeeded", pages: 1, created: 0, swept: victims.length, removed: 0 })
    expect(await liveCatalogIds(env.db.url)).toEqual([...shop.filter((id) => !victims.includes(id)), ...added].sort())
    // The sandbox serves none of them; every product it serves is in the shop.
    const served = (await readCatalog(env.sb.baseUrl, env.sb.apiKey)).map((c) => c.id)
    for (const id of victims) expect(served).not.toContain(id)
    const live = new Set(await liveCatalogIds(env.db.url))
    for (const id of served) expect(live.has(id)).toBe(true)
    expect((await env.app.admin(`/admin/catalog-sync/runs/${paused.id}`)).body.run.brake_resolution).toMatchObject({
      action: "confirmed",
      removals: victims.length,
    })
    // The pass is done: the next run continues the changes feed and sweeps nothing.
    expect(await runAndWait(env, "changes")).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
  })

  it("discarding a paused sweep keeps the products; neither the continuing run nor a later full pass proposes them again", async () => {
    const { shop, victims } = await sweepVictims()
    const paused = await startSweepPausedRun(victims)
    expect(paused).toMatchObject({ status: "paused", removed: 0, swept: 0 })
    expect([...paused.brake.removal_ids].sort()).toEqual([...victims].sort())
    expect(await liveCatalogIds(env.db.url)).toEqual(shop)

    const discarded = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/discard`, { body: {} })
    expect(discarded.status).toBe(200)
    const continued = await waitForRun(env.app, discarded.body.continued_by.id, undefined, 300_000)
    expect(continued).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    expect(continued.brake ?? null).toBeNull()
    expect(await liveCatalogIds(env.db.url)).toEqual(shop)

    const full = await runAndWait(env, "full")
    expect(full).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    expect(full.brake ?? null).toBeNull()
    expect(await liveCatalogIds(env.db.url)).toEqual(shop)
  })
})
