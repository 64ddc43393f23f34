/**
 * Reprice benchmark: a shop synced from the sandbox (BENCH_PRODUCTS products, default 10,000),
 * then new pricing rules saved (a category override, rounding to …99, a crossed-out discount):
 * prints the reprice run's time (goal: under 30 s for 10,000 products), the prices it changed,
 * and the API requests it made (must be 0). `benchSync` measures it after its own full sync;
 * `npm run bench -- reprice` runs it alone. Benchmarks measure; tests never assert on time.
 */
import type { MedusaApp } from "../integration-tests/harness"
import { configure, sql, waitForRun } from "../integration-tests/medusa/poll-and-query"
import { startBenchShop } from "./bench-shop"

type SandboxLike = { control: { stats(): unknown } }

export async function measureReprice(app: MedusaApp, databaseUrl: string, sb: SandboxLike): Promise<Record<string, number>> {
  const products = Number((await sql(databaseUrl, "select count(distinct catalog_id)::int as n from mcs_variant_cost where deleted_at is null"))[0].n)
  const [top] = await sql(
    databaseUrl,
    "select category_id from mcs_variant_cost where deleted_at is null and category_id is not null group by category_id order by count(*) desc limit 1"
  )
  const requestsBefore = (sb.control.stats() as { requests: number }).requests
  const saved = await configure(app, {
    pricing_rules: {
      base_markup_percent: "35",
      overrides: top ? [{ type: "category", category_id: top.category_id, markup_percent: "60" }] : [],
      rounding: { mode: "ending", ending: "99", direction: "up" },
      crossed_out: { type: "discount", discount_percent: "20" },
    },
  })
  if (!saved.run) throw new Error(`no reprice run was queued: ${JSON.stringify(saved)}`)
  const run = await waitForRun(app, saved.run.id, undefined, 3600_000)
  if (run.status !== "succeeded" || run.mode !== "reprice") throw new Error(`reprice ${run.mode} ${run.status}: ${run.error_message}`)
  const requests = (sb.control.stats() as { requests: number }).requests - requestsBefore
  const seconds = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000
  const changed = Number(run.progress?.prices_changed ?? 0)
  console.log(
    `reprice: ${run.items_seen} of ${products} products (${changed} variant prices changed, ${run.updated} products) in ` +
      `${seconds.toFixed(1)} s = ${(run.items_seen / seconds).toFixed(0)} products/s; ${requests} API requests (goal: 0, and < 30 s for 10,000)`
  )
  return { reprice_products: run.items_seen, reprice_prices_changed: changed, reprice_seconds: seconds, reprice_api_requests: requests }
}

export async function benchReprice(): Promise<Record<string, number>> {
  const shop = await startBenchShop("bench-reprice", 5)
  const { products, sb, db, app } = shop
  try {
    const saved = await configure(app, { base_url: sb.baseUrl, api_key: sb.apiKey, markup_percent: "30" })
    const full = await waitForRun(app, saved.run.id, undefined, 3600_000)
    if (full.status !== "succeeded") throw new Error(`full sync ${full.status}: ${full.error_message}`)
    console.log(`shop synced: ${full.created} products`)
    return await measureReprice(app, db.url, sb)
  } finally {
    await shop.stop()
  }
}

if (require.main === module) {
  benchReprice().then(
    () => process.exit(0),
    (e) => {
      console.error(e)
      process.exit(1)
    }
  )
}
