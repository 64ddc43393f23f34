// The workflows write path (plugin option writePath "workflows" / CATALOG_SYNC_WRITE_PATH) in a
// real app: every product row the sync makes goes through Medusa's createProductsWorkflow and its
// variant workflows, so "another plugin's" hooks on them run (demo/src/workflows/hooks/
// record-product-workflow-hooks.ts) for every product and variant the sync made, and the shop is
// exactly the catalog the sandbox serves after a first sync, after rounds of every kind of change
// and after a full resync (independent SQL judge, harness/shop-truth.ts). Then the schema guard:
// a column of a table the bulk writer uses renamed in the test database, with the bulk path
// chosen: one log line naming it, a readiness item, and the runs succeed through the workflows.
// Size: MCS_WP_PRODUCTS (default 40), MCS_WP_ROUNDS (3).
import { randomUUID } from "node:crypto"
import { createTestDatabase, startMedusaApp } from "../harness"
import { judgeProductMap, judgeShop, readShopTruth, type TruthCard } from "../harness/shop-truth"
import { startSandbox } from "../../sandbox/server"
import { configure, sql, waitForRun } from "./poll-and-query"
import { recordingFile } from "./recording-file"
import { configureAndWait, readCatalog, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

const PRODUCTS = Number(process.env.MCS_WP_PRODUCTS ?? 40)
const ROUNDS = Number(process.env.MCS_WP_ROUNDS ?? 3)
const PRICING = { price_calculation: "max", markup_percent: "30", discount_percent: "20", old_price_markup_percent: null } as const

jest.setTimeout(1_800_000)

type Hook = { hook: string; ids: string[] }

async function judge(databaseUrl: string, baseUrl: string, apiKey: string, label: string) {
  const cards = (await readCatalog(baseUrl, apiKey, PRICING as never)) as unknown as TruthCard[]
  const problems = [...judgeShop(cards, await readShopTruth(databaseUrl)), ...(await judgeProductMap(databaseUrl))]
  if (problems.length) throw new Error(`${label}: shop differs from the catalog (${problems.length}):\n${problems.slice(0, 40).join("\n")}`)
  return cards
}

/** Every id a hook was given, over all its runs. */
const hookIds = (hooks: Hook[], name: string) => new Set(hooks.filter((h) => h.hook === name).flatMap((h) => h.ids))

/** Product and variant rows the plugin ever made (deleted ones included), by SQL on Medusa's tables. */
async function madeBySync(databaseUrl: string) {
  const products = (await sql(databaseUrl, `select id from product where metadata->>'catalog_sync' = 'true'`)).map((r) => r.id as string)
  const variants = (await sql(databaseUrl, `select id from product_variant where product_id = any($1)`, [products])).map((r) => r.id as string)
  return { products, variants }
}

describe("write path: Medusa's workflows", () => {
  let env: SyncEnv
  const hooks = recordingFile("write-path-hooks")
  const all: Hook[] = []
  const take = async () => {
    await new Promise((r) => setTimeout(r, 1_000))
    const got = hooks.take<Hook>()
    all.push(...got)
    return got
  }

  beforeAll(async () => {
    env = await startSyncEnv(
      "write-path-workflows",
      { products: PRODUCTS, seed: 29 },
      { CATALOG_SYNC_WRITE_PATH: "workflows", CATALOG_SYNC_TEST_WORKFLOW_HOOKS_FILE: hooks.path }
    )
  })
  afterAll(async () => {
    await env?.close()
  })

  it("a first sync: exact shop, and createProductsWorkflow's hooks ran for every product and variant", async () => {
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, ...PRICING })
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS, skipped: 0 })
    await judge(env.db.url, env.sb.baseUrl, env.sb.apiKey, "after the first sync")
    await take()
    const made = await madeBySync(env.db.url)
    expect(made.products).toHaveLength(PRODUCTS)
    expect([...hookIds(all, "productsCreated")].sort()).toEqual([...made.products].sort())
    expect([...hookIds(all, "productVariantsCreated")].sort()).toEqual([...made.variants].sort())
  })

  it("rounds of every kind of change: exact shop each time; every row made and removed went through the workflows", async () => {
    const totals = { created: 0, updated: 0, stock_only: 0, removed: 0 }
    for (let round = 1; round <= ROUNDS; round++) {
      const res = await fetch(`${env.sb.controlUrl}/mutate`, { method: "POST", body: JSON.stringify({ count: 15, kinds: "all" }) })
      expect(res.status).toBe(200)
      const run = await runAndWait(env, "changes")
      if (run.status !== "succeeded" || run.skipped !== 0)
        throw new Error(`round ${round}: run ${run.status} ${run.error_code ?? ""} ${run.error_message ?? ""} ${JSON.stringify(run.rejected_items ?? [])}`)
      for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += run[k]
      await judge(env.db.url, env.sb.baseUrl, env.sb.apiKey, `round ${round}`)
    }
    await take()
    // The rounds changed, added and removed products (else this proves little).
    expect(totals.updated).toBeGreaterThan(0)
    expect(totals.created + totals.removed).toBeGreaterThan(0)
    const made = await madeBySync(env.db.url)
    expect([...hookIds(all, "productsCreated")].sort()).toEqual([...made.products].sort())
    // Every variant the sync made came from createProductsWorkflow or createProductVariantsWorkflow.
    expect([...hookIds(all, "productVariantsCreated")].sort()).toEqual([...made.variants].sort())
    expect(hookIds(all, "productsUpdated").size).toBeGreaterThan(0)
    const deletedProducts = (await sql(env.db.url, `select id from product where deleted_at is not null and id = any($1)`, [made.products])).map((r) => r.id)
    expect([...hookIds(all, "productsDeleted")].sort()).toEqual(deletedProducts.sort())
  })

  it("a full resync changes nothing and makes nothing", async () => {
    const before = await madeBySync(env.db.url)
    const run = await runAndWait(env, "full")
    expect(run).toMatchObject({ status: "succeeded", created: 0, skipped: 0 })
    await judge(env.db.url, env.sb.baseUrl, env.sb.apiKey, "after a full resync")
    const got = await take()
    expect(got.filter((h) => h.hook === "productsCreated" || h.hook === "productVariantsCreated").flatMap((h) => h.ids)).toEqual([])
    expect(await madeBySync(env.db.url)).toEqual(before)
  })
})

describe("schema guard: a renamed column sends every write through the workflows", () => {
  it("log line, readiness item, runs succeed with an exact shop", async () => {
    const apiKey = `k-${randomUUID()}`
    const sb = await startSandbox({ products: 20, seed: 31, apiKey, rpm: 100_000, concurrency: 3, port: 0, controlPort: 0 })
    const db = await createTestDatabase("write-path-guard")
    const hooksFile = recordingFile("write-path-guard-hooks")
    // The translation module is off in this app, so Medusa itself never reads this table; the
    // bulk writer lists it (it writes translations when the module is on).
    await sql(db.url, `alter table translation rename column translated_field_count to field_count`)
    let app: Awaited<ReturnType<typeof startMedusaApp>> | null = null
    try {
      app = await startMedusaApp({
        databaseUrl: db.url,
        label: "write-path-guard",
        bootTimeoutMs: 360_000,
        env: {
          DISABLE_TRANSLATION: "true",
          CATALOG_SYNC_WRITE_PATH: "bulk",
          CATALOG_SYNC_TEST_WORKFLOW_HOOKS_FILE: hooksFile.path,
          CATALOG_SYNC_REDIS_PREFIX: `mcs-guard-${randomUUID()}`,
          CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000),
          CATALOG_BASE_URL: "",
          CATALOG_API_KEY: "",
        },
      })
      const lines = app
        .logs()
        .split("\n")
        .filter((l) => l.includes("differs from the schema the bulk writer"))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain("translation.translated_field_count")
      const readiness = await app.admin("/admin/catalog-sync/readiness")
      expect(readiness.status).toBe(200)
      const item = readiness.body.readiness.checks.find((c: { id: string }) => c.id === "write_path")
      expect(item).toMatchObject({ status: "warning" })
      expect(item.detail).toContain("translation.translated_field_count")

      const saved = await configure(app, { base_url: sb.baseUrl, api_key: apiKey, ...PRICING })
      const first = await waitForRun(app, saved.run.id)
      expect(first).toMatchObject({ status: "succeeded", created: 20, skipped: 0 })
      await judge(db.url, sb.baseUrl, apiKey, "guarded first sync")
      sb.control.mutate({ count: 10, kinds: undefined })
      const res = await app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
      const changes = await waitForRun(app, res.body.run.id)
      expect(changes).toMatchObject({ status: "succeeded", skipped: 0 })
      await judge(db.url, sb.baseUrl, apiKey, "guarded changes sync")
      // Written through Medusa's workflows: their hooks ran for every product made.
      await new Promise((r) => setTimeout(r, 1_000))
      const made = await madeBySync(db.url)
      expect([...hookIds(hooksFile.take<Hook>(), "productsCreated")].sort()).toEqual(made.products.sort())
      // Still one line: the guard checked once.
      expect(
        app
          .logs()
          .split("\n")
          .filter((l) => l.includes("differs from the schema the bulk writer"))
      ).toHaveLength(1)
    } finally {
      await app?.stop()
      await db.drop()
      await sb.close()
    }
  })
})
