// Commit before the bookmark moves: a Medusa process killed in the middle of a full sync
// (SIGKILL, no shutdown) leaves the shop so that the next run ends exactly as if nothing
// had crashed — no duplicate products, every product equal to the catalog.
import { compareShop, readCatalog, readShop, runAndWait, startSyncEnv, syncState, type SyncEnv } from "./sync-helpers"
import { configure, sql, waitFor } from "./poll-and-query"

// Both write paths (bulk, and Medusa's workflows: CATALOG_SYNC_WRITE_PATH); MCS_CRASH_WRITE_PATHS
// picks them. 1000 products: pages written before the kill and after it.
type WritePath = "bulk" | "workflows"
const WRITE_PATHS = (process.env.MCS_CRASH_WRITE_PATHS ?? "bulk,workflows").split(",") as WritePath[]

jest.setTimeout(900_000)

describe.each(WRITE_PATHS)("sync: crash in the middle of a full sync, write path %s", (writePath) => {
  let env: SyncEnv
  beforeAll(async () => {
    env = await startSyncEnv(`crash-${writePath}`, { products: 1000, seed: 21 }, { CATALOG_SYNC_WRITE_PATH: writePath })
  })
  afterAll(async () => {
    await env?.close()
  })

  it("resumes from the stored cursor after a SIGKILL and ends equal to the catalog without duplicates", async () => {
    const saved = await configure(env.app, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    // Kill once two pages are committed, while the third is being written.
    await waitFor(
      "two pages",
      async () => {
        const res = await env.app.admin(`/admin/catalog-sync/runs/${saved.run.id}`)
        return (res.body?.run?.pages ?? 0) >= 2
      },
      300_000,
      50
    )
    await env.crashAndRestart()

    const state = await syncState(env)
    expect(state.cursor).toBeTruthy() // the bookmark of the last committed page
    expect(state.full_pass_id).toBeTruthy() // the pass is unfinished: its sweep is still due

    const run = await runAndWait(env, "changes")
    expect([run.status, run.error_message]).toEqual(["succeeded", null])
    const cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    const shop = await readShop(env.db.url)
    expect(compareShop(cards, shop)).toEqual([])
    const duplicates = await sql(
      env.db.url,
      "select external_id, count(*)::int as n from product where deleted_at is null group by external_id having count(*) > 1"
    )
    expect(duplicates).toEqual([])
    const skus = await sql(env.db.url, "select sku, count(*)::int as n from inventory_item where deleted_at is null group by sku having count(*) > 1")
    expect(skus).toEqual([])
    expect((await syncState(env)).full_pass_id).toBeNull()
  })
})
