/**
 * Price paths benchmark (issue 14): a shop of BENCH_PRODUCTS products (default 10,000) synced
 * from the sandbox, then
 *  - BENCH_PRICE_CHANGES products (default 1,000) change only their prices: a changes run;
 *  - the crossed-out price switched on (discount_percent 20) and off again in the settings:
 *    a full pass each;
 *  - the same switch in the pricing rules (crossed_out discount / none): a reprice run each.
 * For each: the run's wall time, the pages' write time (the page workflow, as the run logs it),
 * and inside it the bulk price-only writes and the bulk sale-price writes (the app runs with
 * CATALOG_SYNC_PROFILE=1), with the load average. Goals: 1,000 price-only changes in ≤ 1 s of
 * write time; the switch for 10,000 products ≤ 30 s each way. Benchmarks measure; tests never
 * assert on time. Run: `npx tsx bench/price-paths.ts` (BENCH_KEEP_DB=1 keeps the database).
 */
import { randomUUID } from "node:crypto"
import { loadavg } from "node:os"
import { createTestDatabase, ensurePluginBuilt, startMedusaApp, type MedusaApp } from "../integration-tests/harness"
import { configure, waitForRun } from "../integration-tests/medusa/poll-and-query"
import { startSandbox } from "../sandbox/server"

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000)
const PRICE_CHANGES = Number(process.env.BENCH_PRICE_CHANGES ?? 1_000)
const PRICING = { price_calculation: "max", markup_percent: "30", discount_percent: null, old_price_markup_percent: null }

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")
const sum = (text: string, re: RegExp) => [...text.matchAll(re)].reduce((s, m) => s + Number(m[1]), 0)

/** What the app logged about a run's writes (its log from `from` on). */
function writeTimes(app: MedusaApp, from: number) {
  const text = app.logs().slice(from)
  return {
    pages: [...text.matchAll(/catalog sync page \d+:/g)].length,
    page_write_ms: sum(text, /catalog sync page \d+:.*? wrote in (\d+) ms/g),
    bulk_price_ms: sum(text, /catalog sync profile: bulk price-only write of \d+ products (\d+) ms/g),
    bulk_price_products: sum(text, /catalog sync profile: bulk price-only write of (\d+) products/g),
    bulk_sale_ms: sum(text, /catalog sync profile: bulk sale prices of \d+ variants (\d+) ms/g),
    bulk_sale_variants: sum(text, /catalog sync profile: bulk sale prices of (\d+) variants/g),
  }
}

async function measure(app: MedusaApp, label: string, start: () => Promise<{ id: string } | null>) {
  const from = app.logs().length
  const queued = await start()
  if (!queued) throw new Error(`${label}: no run was queued`)
  const run = await waitForRun(app, queued.id, undefined, 3600_000)
  if (run.status !== "succeeded") throw new Error(`${label}: run ${run.mode} ${run.status}: ${run.error_message}`)
  const seconds = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000
  const times = writeTimes(app, from)
  console.log(
    `${label}: ${run.mode} run, ${run.items_seen} products seen, ${run.updated} updated, in ${seconds.toFixed(1)} s; ` +
      `${JSON.stringify(times)}; load ${load()}`
  )
  return { seconds, ...times, updated: run.updated }
}

export async function benchPricePaths(): Promise<Record<string, unknown>> {
  ensurePluginBuilt()
  const sb = await startSandbox({ products: PRODUCTS, seed: 14, apiKey: `bench-${randomUUID()}`, rpm: 1_000_000, concurrency: 3, port: 0, controlPort: 0 })
  const db = await createTestDatabase("bench_price_paths")
  const app = await startMedusaApp({
    databaseUrl: db.url,
    label: "bench-price-paths",
    env: {
      CATALOG_SYNC_REDIS_PREFIX: `mcs-bench-${randomUUID()}`,
      CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000),
      CATALOG_BASE_URL: "",
      CATALOG_API_KEY: "",
      CATALOG_SYNC_PROFILE: "1",
    },
    bootTimeoutMs: 180_000,
  })
  const out: Record<string, unknown> = { products: PRODUCTS, load_start: load() }
  try {
    out.full_sync = await measure(app, "full sync", async () => (await configure(app, { base_url: sb.baseUrl, api_key: sb.apiKey, ...PRICING })).run)

    const ids = sb.state.catalog
      .liveProducts()
      .filter((p) => p.suppliers.every((s) => s.baseCost !== null))
      .slice(0, PRICE_CHANGES)
      .map((p) => p.idText)
    for (const id of ids) sb.state.mutator.mutate(1, ["price"], [id])
    out.price_only = await measure(
      app,
      `${ids.length} price mutations`,
      async () => (await app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })).body.run
    )

    out.crossed_out_on = await measure(app, "crossed-out on (settings, full pass)", async () => (await configure(app, { discount_percent: "20" })).run)
    out.crossed_out_off = await measure(app, "crossed-out off (settings, full pass)", async () => (await configure(app, { discount_percent: null })).run)

    const rules = (crossed_out: unknown) => ({
      pricing_rules: { base_markup_percent: "30", overrides: [], rounding: { mode: "none" }, minimum_margin: { amount: null, percent: null }, crossed_out },
    })
    // Saving the API's own markup as rules first: the switch below then changes only the crossed-out price.
    await measure(app, "rules saved (no price moves)", async () => (await configure(app, rules({ type: "none" }))).run).catch((e) =>
      console.log(`${e.message}`)
    )
    out.rules_crossed_out_on = await measure(
      app,
      "crossed-out on (pricing rules, reprice)",
      async () => (await configure(app, rules({ type: "discount", discount_percent: "20" }))).run
    )
    out.rules_crossed_out_off = await measure(app, "crossed-out off (pricing rules, reprice)", async () => (await configure(app, rules({ type: "none" }))).run)
    out.load_end = load()
    console.log(JSON.stringify(out))
    return out
  } finally {
    await app.stop()
    // BENCH_KEEP_DB=1 keeps the shop's database for a look at the queries afterwards.
    if (process.env.BENCH_KEEP_DB === "1") console.log(`database kept: ${db.url}`)
    else await db.drop()
    await sb.close()
  }
}

if (require.main === module) {
  benchPricePaths().then(
    () => process.exit(0),
    (e) => {
      console.error(e)
      process.exit(1)
    }
  )
}
