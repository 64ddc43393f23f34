// The sync in a real Medusa app (spawned demo app with the built plugin, real
// PostgreSQL and Redis, runs through the admin API and the BullMQ worker) against the
// sandbox over loopback HTTP: full sync, unchanged second sync, mutations and removals.
import { sql } from "./poll-and-query"
import { compareShop, configureAndWait, readCatalog, readShop, runAndWait, startSyncEnv, syncState, type SyncEnv } from "./sync-helpers"

jest.setTimeout(900_000)

describe("sync: full sync, nothing changed, changes feed", () => {
  let env: SyncEnv
  beforeAll(async () => {
    env = await startSyncEnv("sync", { products: 600, seed: 7 })
  })
  afterAll(async () => {
    await env?.close()
  })

  it("a full sync of 600 products equals what the sandbox serves", async () => {
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ status: "succeeded", created: 600, skipped: 0 })
    const cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    expect(cards).toHaveLength(600)
    const shop = await readShop(env.db.url)
    expect(compareShop(cards, shop)).toEqual([])
    // First-run setup: uah on the store; the plugin's own stock location and the store's default
    // sales channel (none were configured; spec change: was a channel of the plugin's own, which
    // no publishable key saw), linked to each other; every product in that channel.
    const currencies = await sql(env.db.url, "select currency_code from store_currency where deleted_at is null")
    expect(currencies.map((c) => c.currency_code)).toContain("uah")
    const [location] = await sql(env.db.url, "select id from stock_location where name = 'Catalog sync warehouse' and deleted_at is null")
    const [channel] = await sql(env.db.url, "select default_sales_channel_id as id from store where deleted_at is null limit 1")
    expect(location && channel).toBeTruthy()
    const channelLocation = await sql(
      env.db.url,
      "select 1 from sales_channel_stock_location where sales_channel_id = $1 and stock_location_id = $2 and deleted_at is null",
      [channel.id, location.id]
    )
    expect(channelLocation).toHaveLength(1)
    const levelsElsewhere = await sql(env.db.url, "select count(*)::int as n from inventory_level where location_id <> $1 and deleted_at is null", [
      location.id,
    ])
    expect(levelsElsewhere[0].n).toBe(0)
    expect(new Set([...shop.values()].flatMap((p) => p.salesChannelIds))).toEqual(new Set([channel.id]))
    const state = await syncState(env)
    expect(state.cursor).toBeTruthy()
    expect(state.phase).toBe("changes")
    expect(state.full_pass_id).toBeNull()
  })

  it("a second sync with nothing changed writes nothing", async () => {
    const before = await readShop(env.db.url)
    const changes = await runAndWait(env, "changes")
    expect(changes.status).toBe("succeeded")
    expect(changes.created + changes.updated + changes.stock_only + changes.removed).toBe(0)
    const full = await runAndWait(env, "full")
    expect(full).toMatchObject({ status: "succeeded", unchanged: 600, created: 0, updated: 0, stock_only: 0, removed: 0, swept: 0 })
    expect(await readShop(env.db.url)).toEqual(before)
  })

  it("after sandbox mutations a changes sync makes the shop equal again, and removed products are gone", async () => {
    const mutated = (await env.sb.control.mutate({ count: 150 })) as { changed: string[]; removed: string[]; added: string[] }
    expect(mutated.removed.length).toBeGreaterThan(0)
    expect(mutated.added.length).toBeGreaterThan(0)
    const run = await runAndWait(env, "changes")
    expect([run.status, run.error_message]).toEqual(["succeeded", null])
    expect(run.removed).toBe(new Set(mutated.removed).size)
    expect(run.created).toBe(new Set(mutated.added).size)
    expect(run.stock_only).toBeGreaterThan(0)
    expect(run.updated).toBeGreaterThan(0)
    const cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    const shop = await readShop(env.db.url)
    expect(compareShop(cards, shop)).toEqual([])
    for (const id of mutated.removed) expect(shop.has(id)).toBe(false)
  })
})
