// A first sync analyzes the tables it fills as they grow (src/sync-run/analyze-as-it-grows.ts):
// read from PostgreSQL's own record of manual ANALYZEs (autovacuum's are kept apart), on a
// shop that ends equal to the catalog.
import { compareShop, readCatalog, readShop, startSyncEnv, type SyncEnv } from "./sync-helpers"
import { configure, sql, waitForRun } from "./poll-and-query"

jest.setTimeout(900_000)

describe("sync: a first sync analyzes the tables it fills as they grow", () => {
  let env: SyncEnv
  beforeAll(async () => {
    // Six pages of 200: the run passes 1,000 created products on its fifth.
    env = await startSyncEnv("analyze", { products: 1_100, seed: 5 })
  })
  afterAll(async () => {
    await env?.close()
  })

  const TABLES = [
    "product",
    "product_variant",
    "price",
    "inventory_item",
    "inventory_level",
    "product_variant_price_set",
    "product_sales_channel",
    "product_product_catalog_sync_catalog_brand",
    "translation",
    "mcs_product_map",
    "mcs_variant_cost",
  ]

  const analyzed = async () =>
    (await sql(env.db.url, "select relname from pg_stat_user_tables where last_analyze is not null order by relname")).map((r) => String(r.relname))

  it("analyzes Medusa's product, price, inventory and link tables and its own once 1,000 products are created, and the shop ends equal to the catalog", async () => {
    // Autovacuum (on by default) kept off these tables, so what analyzes them is the run alone and
    // none of them is held by autovacuum when the run's ANALYZE (which skips a held table) comes.
    for (const t of TABLES) await sql(env.db.url, `alter table "${t}" set (autovacuum_enabled = false)`)
    expect(await analyzed()).toEqual([])
    const saved = await configure(env.app, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    const run = await waitForRun(env.app, saved.run.id, undefined, 600_000)
    expect([run.status, run.error_message, run.created]).toEqual(["succeeded", null, 1_100])
    const tables = await analyzed()
    for (const t of TABLES) expect(tables).toContain(t)
    // Planner statistics exist for the brand links now (before any autovacuum on a fresh shop).
    const [{ n }] = await sql(env.db.url, "select count(*)::int as n from pg_stats where tablename = 'product_product_catalog_sync_catalog_brand'")
    expect(n).toBeGreaterThan(0)
    expect(env.app.logs()).toMatch(/catalog sync: analyzed \d+ tables after 1000 products created, in \d+ ms/)
    expect(env.app.logs()).not.toMatch(/could not analyze the tables/)
    const cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    expect(compareShop(cards, await readShop(env.db.url))).toEqual([])
  })
})
