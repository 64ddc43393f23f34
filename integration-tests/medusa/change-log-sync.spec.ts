// The change log as the engine writes it (issue 11), against a real Medusa app, PostgreSQL,
// Redis and the sandbox over HTTP: a full pass over more products than the (test-lowered) cap
// stores exactly the cap's rows and counts the rest; after the sandbox's /mutate, a changes run
// lists exactly the products whose served price moved, with the selling price before and after
// as the sandbox served them; rows older than the retention are deleted when a run ends; and the
// run's progress says how many products it did.
//
// Size: CI syncs 450 products over a cap lowered to 100 rows (CATALOG_SYNC_TEST_CHANGE_LOG_CAP), the
// shape of a large pass at a CI cost. MCS_CHANGE_LOG_PRODUCTS=10000 runs the 10,000-product
// full pass against the real cap (2,000 rows a full pass; about 5-10 min on 2 busy cores). Either way
// the table's growth is measured and must follow the cap, not the catalog's size.
import { randomUUID } from "node:crypto"
import { parse } from "lossless-json"
import { servedSellingPrice } from "../harness/served-prices"
import type { TruthCard } from "../harness/shop-truth"
import { sql } from "./poll-and-query"
import { MAX_ROWS_FULL_PASS } from "../../src/sync/change-log-policy"
import { configureAndWait, readCatalog, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

const PRODUCTS = Number(process.env.MCS_CHANGE_LOG_PRODUCTS || 450)
// The real cap only bites past its own size: a smaller catalog gets a lowered one.
const REAL_CAP = PRODUCTS > MAX_ROWS_FULL_PASS
const CAP = REAL_CAP ? MAX_ROWS_FULL_PASS : 100
const FULL_PASS_TIMEOUT_MS = Math.max(300_000, PRODUCTS * 120)
// "avg": a change of any supplier's cost moves the served price (with "max" a cheaper supplier's would not).
const PRICING = { price_calculation: "avg", markup_percent: "30", discount_percent: null, old_price_markup_percent: null } as const

jest.setTimeout(600_000 + FULL_PASS_TIMEOUT_MS)

async function servedCards(env: SyncEnv): Promise<Map<string, TruthCard>> {
  const cards = (await readCatalog(env.sb.baseUrl, env.sb.apiKey, PRICING as never)) as unknown as TruthCard[]
  return new Map(cards.map((c) => [c.id, c]))
}

/** The change-log table's size on disk, indexes and TOAST included. */
async function changeLogBytes(env: SyncEnv): Promise<number> {
  return Number((await sql(env.db.url, "select pg_total_relation_size('mcs_sync_run_change')::bigint as n"))[0].n)
}

const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0)

describe("change log written by the sync", () => {
  let env: SyncEnv

  beforeAll(async () => {
    env = await startSyncEnv("change-log-sync", { products: PRODUCTS, seed: 23 }, REAL_CAP ? {} : { CATALOG_SYNC_TEST_CHANGE_LOG_CAP: String(CAP) })
  })
  afterAll(async () => {
    await env?.close()
  })

  it("a full pass over more products than the cap stores exactly the cap's rows and counts the rest", async () => {
    const bytesBefore = await changeLogBytes(env)
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, ...PRICING }, FULL_PASS_TIMEOUT_MS)
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS, skipped: 0 })
    const rows = await sql(env.db.url, "select kind, count(*)::int as n from mcs_sync_run_change where run_id = $1 group by kind", [run.id])
    const stored = rows.reduce((a, r) => a + r.n, 0)
    expect(stored).toBe(CAP)
    const omitted = run.progress.change_log_omitted as Record<string, number>
    // Every product the pass created has a row or is counted as omitted ("drafted" for those without a price).
    expect(stored + sum(omitted)).toBe(PRODUCTS)
    expect(Object.keys(omitted).every((k) => k === "created" || k === "drafted")).toBe(true)
    // The database grows by the cap's rows, not by the catalog: at most 1 KiB a stored row with
    // its indexes, plus a few pages each for a table and indexes that start empty.
    const growth = (await changeLogBytes(env)) - bytesBefore
    console.log(
      `change log over a ${PRODUCTS}-product full pass (cap ${CAP}${REAL_CAP ? ", the real one" : ", lowered for the test"}): ` +
        `${stored} rows stored, ${sum(omitted)} counted without a row; table +${(growth / 1024).toFixed(0)} KiB`
    )
    expect(growth).toBeLessThanOrEqual(CAP * 1024 + 256 * 1024)

    const res = await env.app.admin(`/admin/catalog-sync/runs/${run.id}/changes?limit=200`)
    expect(res.status).toBe(200)
    expect(res.body.count).toBe(CAP)
    expect(res.body.omitted).toEqual(omitted)
    // Products done: every card read.
    expect(run.progress.items_done).toBe(run.items_seen)
    expect(run.items_seen).toBe(PRODUCTS)

    // Drafted rows say why; created rows carry the served selling price.
    const served = await servedCards(env)
    for (const row of res.body.changes) {
      if (row.kind === "drafted") expect(row.reason).toMatch(/no price/)
      if (row.kind === "created") expect(row.price_after).toBe(servedSellingPrice(served.get(row.catalog_id)!))
    }
  })

  it("after /mutate, a changes run lists exactly the repriced products with their prices before and after", async () => {
    const before = await servedCards(env)
    // Rows older than the retention go when a run ends; younger ones stay.
    const oldId = `cschg_${randomUUID()}`
    const youngId = `cschg_${randomUUID()}`
    await sql(
      env.db.url,
      `insert into mcs_sync_run_change (id, run_id, kind, created_at, updated_at) values
       ($1, 'csrun_old', 'updated', now() - interval '40 days', now() - interval '40 days'),
       ($2, 'csrun_old', 'updated', now() - interval '10 days', now() - interval '10 days')`,
      [oldId, youngId]
    )

    const res = await fetch(`${env.sb.controlUrl}/mutate`, { method: "POST", body: JSON.stringify({ count: 12, kinds: ["price"] }) })
    expect(res.status).toBe(200)
    // Catalog ids are 64-bit: read losslessly, compared as text like the cards' ids.
    const answer = parse(await res.text()) as { changed: unknown[] }
    const mutated = { changed: answer.changed.map(String) }
    expect(mutated.changed.length).toBeGreaterThan(0)
    const after = await servedCards(env)
    // The products whose served selling price moved (a mutation can land on an unpriced size or cancel out).
    const repriced = [...new Set(mutated.changed)].filter((id) => servedSellingPrice(before.get(id)!) !== servedSellingPrice(after.get(id)!))
    expect(repriced.length).toBeGreaterThan(0)

    const run = await runAndWait(env, "changes")
    expect(run).toMatchObject({ status: "succeeded", skipped: 0 })
    const { body } = await env.app.admin(`/admin/catalog-sync/runs/${run.id}/changes?limit=200`)
    const rows = body.changes as {
      kind: string
      catalog_id: string
      product_id: string
      price_changed: boolean
      price_before: string | null
      price_after: string | null
    }[]
    // Every row is a mutated product; every mutated product the catalog repriced has its row.
    expect(rows.every((r) => mutated.changed.includes(r.catalog_id))).toBe(true)
    const priced = rows.filter((r) => r.price_changed)
    expect(priced.map((r) => r.catalog_id).sort()).toEqual(expect.arrayContaining(repriced.sort()))
    for (const id of repriced) {
      const row = priced.find((r) => r.catalog_id === id)!
      expect(row).toMatchObject({ kind: "updated", price_before: servedSellingPrice(before.get(id)!), price_after: servedSellingPrice(after.get(id)!) })
      expect(row.product_id).toMatch(/^prod_/)
    }
    expect(body.omitted).toEqual({})
    expect(run.progress.items_done).toBe(run.items_seen)

    const left = await sql(env.db.url, "select id from mcs_sync_run_change where run_id = 'csrun_old'")
    expect(left.map((r) => r.id)).toEqual([youngId])
  })
})
