/**
 * The store's product page and listing queries on a synced shop, planned by PostgreSQL (issue 44):
 * `npx tsx bench/product-page-plans.ts`. A fresh shop syncs BENCH_PRODUCTS products (default
 * 20,000) from a sandbox with no rate limit; the app is then started again with every ORM statement
 * logged (demo's DEMO_DATABASE_LOGGING), the storefront's requests are made once to warm up and
 * once to capture, and each statement they ran is run again under EXPLAIN (ANALYZE, BUFFERS): as
 * the app ran it (with the plugin's store middlewares: the variant order asks for
 * variants.variant_rank) and with that column taken out (Medusa's own query). Prints each
 * statement's time both ways and its plan's top lines, and the indexes of the link tables the
 * plugin adds to products.
 */
import { loadavg } from "node:os"
import { startMedusaApp } from "../integration-tests/harness"
import { configure, sql, waitForRun } from "../integration-tests/medusa/poll-and-query"
import { startBenchShop } from "./bench-shop"

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")

/** MikroORM's logged statements: `[query] <sql> [took N ms …]`. */
function statementsIn(logs: string): string[] {
  // eslint-disable-next-line no-control-regex
  const plain = logs.replace(/\x1b\[[0-9;]*m/g, "")
  return [...plain.matchAll(/\[query\] (select [\s\S]*?) \[took [^\]]*\]/g)].map((m) => m[1])
}

async function explain(url: string, statement: string): Promise<{ ms: number; plan: string[] }> {
  const rows = await sql<{ "QUERY PLAN": string }>(url, `explain (analyze, buffers) ${statement}`)
  const plan = rows.map((r) => r["QUERY PLAN"])
  const total = plan.find((l) => l.startsWith("Execution Time"))
  return { ms: Number(/([\d.]+) ms/.exec(total ?? "")?.[1] ?? NaN), plan }
}

/** The statement without the variant order's column (what Medusa's own route would ask). */
function withoutVariantRank(statement: string): string {
  return statement.replace(/,\s*"[a-z0-9_]+"\."variant_rank"(\s+as\s+"[^"]+")?/gi, "")
}

async function main() {
  const products = Number(process.env.BENCH_PRODUCTS ?? 20_000)
  const shop = await startBenchShop("bench-page-plans", 44, products, {})
  let logged: Awaited<ReturnType<typeof startMedusaApp>> | null = null
  try {
    const saved = await configure(shop.app, { base_url: shop.sb.baseUrl, api_key: shop.sb.apiKey, markup_percent: "30" })
    const run = await waitForRun(shop.app, saved.run.id, undefined, 7200_000)
    if (run.status !== "succeeded") throw new Error(`first sync ${run.status}: ${run.error_message}`)
    console.log(`${run.created} products synced; load ${load()}`)
    await shop.app.stop()
    const app = (logged = await startMedusaApp({
      databaseUrl: shop.db.url,
      label: "bench-page-plans-logged",
      env: { DEMO_DATABASE_LOGGING: "true", CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000), CATALOG_BASE_URL: "", CATALOG_API_KEY: "" },
      bootTimeoutMs: 300_000,
    }))
    const keys = await app.admin("/admin/api-keys?type=publishable&limit=1")
    const key = keys.body.api_keys[0]
    const channels = await app.admin("/admin/sales-channels?limit=100")
    await app.admin(`/admin/api-keys/${key.id}/sales-channels`, { body: { add: channels.body.sales_channels.map((c: any) => c.id) } })
    const region = (await app.admin("/admin/regions?limit=50")).body.regions.find((r: any) => r.currency_code === "uah")
    const [product] = await sql(shop.db.url, "select id, handle from product where deleted_at is null and status = 'published' order by id offset 1000 limit 1")
    const store = async (path: string) => {
      const res = await fetch(app.url + path, { headers: { "x-publishable-api-key": key.token } })
      if (!res.ok) throw new Error(`${path}: ${res.status} ${(await res.text()).slice(0, 300)}`)
      await res.text()
    }
    const fields = "*variants.calculated_price,+variants.inventory_quantity"
    const priced = `fields=${fields}&region_id=${region.id}`
    const requests: Record<string, string> = {
      "product page by id": `/store/products/${product.id}?${priced}`,
      "product page by handle": `/store/products?handle=${product.handle}&${priced}`,
      "product page by id, with the catalog brand": `/store/products/${product.id}?fields=${fields},*catalog_brand,*catalog_brand_model&region_id=${region.id}`,
      "listing of 12": `/store/products?limit=12&offset=120&fields=*variants.calculated_price&region_id=${region.id}`,
    }
    const slow: { name: string; statement: string; ms: number }[] = []
    for (const [name, path] of Object.entries(requests)) {
      await store(path) // warm
      const from = app.logs().length
      const started = performance.now()
      await store(path)
      const ms = performance.now() - started
      const statements = statementsIn(app.logs().slice(from))
      console.log(`\n${name}: ${ms.toFixed(0)} ms end to end, ${statements.length} statements (load ${load()})`)
      for (const statement of statements) {
        const asRun = await explain(shop.db.url, statement)
        const plain = withoutVariantRank(statement)
        const own = plain !== statement ? await explain(shop.db.url, plain) : null
        console.log(
          `  ${asRun.ms.toFixed(1)} ms${own ? ` (without the variant rank ${own.ms.toFixed(1)} ms)` : ""}: ${statement.slice(0, 160).replace(/\s+/g, " ")}…`
        )
        // The plans of the statements over BENCH_PLAN_MIN_MS (default 1 ms), BENCH_PLAN_LINES lines (default 6).
        if (asRun.ms < Number(process.env.BENCH_PLAN_MIN_MS ?? 1)) continue
        slow.push({ name, statement, ms: asRun.ms })
        for (const line of asRun.plan.slice(0, Number(process.env.BENCH_PLAN_LINES ?? 6))) console.log(`      ${line}`)
      }
    }
    // Medusa's product query joins the images without their deleted_at condition, and its one index on
    // image.product_id is partial (deleted_at is null): the join cannot use it. With a plain index:
    if (process.env.BENCH_PLANS_TRY_IMAGE_INDEX === "1") {
      await sql(shop.db.url, `create index "IDX_bench_image_product_id" on image (product_id)`)
      await sql(shop.db.url, "analyze image")
      console.log("\nwith a plain index on image (product_id):")
      for (const { name, statement, ms } of slow) {
        const after = await explain(shop.db.url, statement)
        console.log(`  ${name}: ${ms.toFixed(1)} ms → ${after.ms.toFixed(1)} ms: ${statement.slice(0, 100).replace(/\s+/g, " ")}…`)
        for (const line of after.plan.slice(0, Number(process.env.BENCH_PLAN_LINES ?? 6))) console.log(`      ${line}`)
      }
    }
    const indexes = await sql(
      shop.db.url,
      `select tablename, indexdef from pg_indexes where tablename like 'product\\_product\\_catalog\\_sync%' or tablename like 'product\\_variant%' order by 1, 2`
    )
    console.log("\nindexes of the plugin's product link tables and the variant table:")
    for (const i of indexes) console.log(`  ${i.indexdef}`)
  } finally {
    await logged?.stop()
    await shop.stop()
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e)
    process.exit(1)
  }
)
