/**
 * `npm run bench` (or `npm run bench -- import`): the plugin's full sync through each write path
 * (bulk, and Medusa's own workflows: writePath "workflows") beside Medusa's own CSV product import
 * of the same catalog through the route the 2.21 admin uses (BENCH_PRODUCTS, default 3,000; same
 * sandbox seed), alternating on one machine (BENCH_ROUNDS rounds, default 2: bulk, workflows,
 * import, bulk, …), each on a fresh database and app. Prints the rates, their ratios, the app's CPU,
 * PostgreSQL's CPU (its backends serving the shop's database) and peak RSS, with the load. Medusa's import
 * writes products, options, variants, images, prices and inventory items, but no stock levels and no categories; the
 * plugin also writes inventory items and levels, categories and translations.
 * Medusa's import is timed from the upload to its workflow's success notification (its last step);
 * the plugin's from the run's start to its end. The ratio is over all rounds (products over
 * seconds); the app's CPU per product is printed beside it, steadier on a shared machine.
 * Then, on the last plugin shop: BENCH_REMOVED removals (default 5,000, at most the catalog),
 * timed as one changes run (bench/removals.ts).
 *
 * The workflows path also runs a second way each round: two app processes on the same database
 * and Redis, each a page writer (CATALOG_SYNC_PAGE_WRITERS 1, four pages in flight: bench-shop.ts
 * `writers`, the scale-out topology of docs/production-topology.md), so the second core writes
 * pages too. Its app CPU is the sum over both processes. Medusa's CSV import runs in one process
 * (one workflow over the file's chunks, in order): it cannot spread, so it has no such pass.
 * BENCH_TWO_WRITERS=0 leaves the two-process pass out.
 */
import { loadavg } from "node:os"
import { configure, sql, waitForRun } from "../integration-tests/medusa/poll-and-query"
import { timeRemovals } from "./removals"
import { startBenchShop, type BenchShop } from "./bench-shop"
import { cpuTicksOf } from "./proc-ticks"
import { catalogCsv, importCsv, readCatalog } from "./medusa-csv-import"
import { markLog } from "./page-writes"
import { cpuSeconds, sampleRss } from "./sync"

const SEED = 3
const MARKUP = "30"
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")

interface PassFigures {
  products: number
  seconds: number
  cpu: number
  /** CPU seconds of the PostgreSQL backends serving the shop's database during the pass. */
  pgCpu: number
  peakRss: number
  written: Written
}

/** CPU ticks so far of each PostgreSQL backend connected to this database (same machine, /proc). */
async function postgresTicks(databaseUrl: string): Promise<Map<number, number>> {
  const out = new Map<number, number>()
  const rows = await sql(databaseUrl, "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()")
  for (const { pid } of rows) {
    const ticks = cpuTicksOf(pid) // null: ended, or PostgreSQL runs elsewhere
    if (ticks !== null) out.set(pid, ticks)
  }
  return out
}

/**
 * PostgreSQL's CPU for the shop during a pass: each backend's ticks at the end less its ticks at
 * the start (a backend that ended during the pass is not counted; the app's pool keeps them open).
 */
export function postgresCpu(databaseUrl: string) {
  const before = postgresTicks(databaseUrl)
  return async () => {
    const start = await before
    const end = await postgresTicks(databaseUrl)
    let ticks = 0
    for (const [pid, t] of end) ticks += t - (start.get(pid) ?? 0)
    return ticks / 100
  }
}

/** What the pass left in Medusa's tables, counted with SQL, so both paths are compared on what they wrote. */
interface Written {
  variants: number
  prices: number
  inventoryItems: number
  stockLevels: number
  stockedQuantity: number
}

async function countWritten(databaseUrl: string): Promise<Written> {
  const n = async (text: string) => Number((await sql(databaseUrl, text))[0].n)
  return {
    variants: await n("select count(*)::int as n from product_variant where deleted_at is null"),
    prices: await n("select count(*)::int as n from price where deleted_at is null"),
    inventoryItems: await n("select count(*)::int as n from inventory_item where deleted_at is null"),
    stockLevels: await n("select count(*)::int as n from inventory_level where deleted_at is null"),
    stockedQuantity: await n("select coalesce(sum(stocked_quantity), 0)::bigint as n from inventory_level where deleted_at is null"),
  }
}

const describe = (label: string, f: PassFigures) =>
  `${label}: ${f.products} products in ${f.seconds.toFixed(1)} s = ${(f.products / f.seconds).toFixed(1)} products/s; ` +
  `app CPU ${f.cpu.toFixed(1)} s (${((f.cpu * 1000) / f.products).toFixed(1)} ms/product); PostgreSQL CPU ${f.pgCpu.toFixed(1)} s ` +
  `(${((f.pgCpu * 1000) / f.products).toFixed(1)} ms/product); app peak RSS ${f.peakRss.toFixed(0)} MB; ` +
  `wrote ${f.written.variants} variants, ${f.written.prices} prices, ${f.written.inventoryItems} inventory items, ` +
  `${f.written.stockLevels} stock levels (${f.written.stockedQuantity} units); load ${load()}`

/** The app's CPU: every app process of the shop (one, or the page writers), summed. */
export const appCpu = (shop: BenchShop) => [shop.app, ...shop.others].reduce((sum, a) => sum + cpuSeconds(a.pid), 0)

async function pluginFullSync(shop: BenchShop): Promise<PassFigures> {
  const { app, sb } = shop
  // Peak RSS: of the process that runs the run (with two writers, the other one's is not added).
  const rss = sampleRss(app.pid)
  const cpuBefore = appCpu(shop)
  const pg = postgresCpu(shop.db.url)
  const saved = await configure(app, { base_url: sb.baseUrl, api_key: sb.apiKey, markup_percent: MARKUP })
  const run = await waitForRun(app, saved.run.id, undefined, 3600_000)
  const peakRss = rss.stop()
  if (run.status !== "succeeded") throw new Error(`full sync ${run.status}: ${run.error_message}`)
  const seconds = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000
  const cpu = appCpu(shop) - cpuBefore
  return { products: run.created, seconds, cpu, pgCpu: await pg(), peakRss, written: await countWritten(shop.db.url) }
}

async function medusaImport(shop: BenchShop): Promise<PassFigures> {
  const { app, sb, db } = shop
  const cards = await readCatalog(sb.baseUrl, sb.apiKey, MARKUP)
  const [{ id: salesChannelId }] = await sql(db.url, "select id from sales_channel where deleted_at is null order by created_at limit 1")
  const [{ id: shippingProfileId }] = await sql(db.url, "select id from shipping_profile where deleted_at is null order by created_at limit 1")
  const csv = catalogCsv(cards, { salesChannelId, shippingProfileId, currency: "uah" })
  const rss = sampleRss(app.pid)
  const cpuBefore = cpuSeconds(app.pid)
  const pg = postgresCpu(db.url)
  const { seconds, productRowsSeconds, lastRowSeconds } = await importCsv(app, db.url, csv, cards.length)
  const peakRss = rss.stop()
  const cpu = cpuSeconds(app.pid) - cpuBefore
  console.log(
    `  Medusa CSV import: every product row after ${productRowsSeconds?.toFixed(1)} s, last product, price, inventory item or link row after ` +
      `${lastRowSeconds.toFixed(1)} s, success notification (the end timed) after ${seconds.toFixed(1)} s`
  )
  return { products: cards.length, seconds, cpu, pgCpu: await pg(), peakRss, written: await countWritten(db.url) }
}

export async function benchImport(): Promise<Record<string, number>> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
  const twoWriters = process.env.BENCH_TWO_WRITERS !== "0"
  const passes = { bulk: [] as PassFigures[], workflows: [] as PassFigures[], workflows2: [] as PassFigures[], medusa: [] as PassFigures[] }
  const labels = {
    bulk: "plugin full sync, bulk path",
    workflows: "plugin full sync, workflows path",
    workflows2: "plugin full sync, workflows path, TWO writer processes (app CPU summed over both)",
    medusa: "Medusa CSV import (one process: it cannot spread)",
  }
  const order = ["bulk", "workflows", ...(twoWriters ? (["workflows2"] as const) : []), "medusa"] as const
  const results: Record<string, number> = {}
  for (let round = 1; round <= rounds; round++) {
    for (const path of order) {
      const env: Record<string, string> = path === "medusa" ? {} : { CATALOG_SYNC_WRITE_PATH: path === "workflows2" ? "workflows" : path }
      const shop = await startBenchShop(`bench-import-${path}`, SEED, Number(process.env.BENCH_PRODUCTS ?? 3_000), {
        env,
        ...(path === "workflows2" ? { writers: 2 } : {}),
      })
      const last = round === rounds && path === "bulk"
      try {
        const f = path === "medusa" ? await medusaImport(shop) : await pluginFullSync(shop)
        passes[path].push(f)
        console.log(describe(`round ${round}, ${labels[path]}`, f))
        if (last && Number(process.env.BENCH_REMOVED ?? 5_000) > 0) {
          const r = await timeRemovals(shop, Math.min(Number(process.env.BENCH_REMOVED ?? 5_000), f.products))
          results.removed = r.removed
          results.removal_seconds = r.seconds
          results.removals_per_s = r.removed / r.seconds
        }
      } finally {
        await shop.stop()
      }
    }
  }
  // Over all rounds: products over seconds, so one round slowed by the machine's other work weighs as its time.
  const overall = (fs: PassFigures[]) => fs.reduce((a, f) => a + f.products, 0) / fs.reduce((a, f) => a + f.seconds, 0)
  const perProduct = (fs: PassFigures[], k: "cpu" | "pgCpu") => fs.reduce((a, f) => a + f[k], 0) / fs.reduce((a, f) => a + f.products, 0)
  const csv = overall(passes.medusa)
  results.medusa_import_products_per_s = csv
  const shown = order.filter((p) => passes[p].length)
  for (const path of shown) {
    if (path === "medusa") continue
    results[`${path}_products_per_s`] = overall(passes[path])
    results[`${path}_vs_csv_import`] = overall(passes[path]) / csv
  }
  for (const path of shown) {
    results[`${path}_app_cpu_ms_per_product`] = perProduct(passes[path], "cpu") * 1000
    results[`${path}_pg_cpu_ms_per_product`] = perProduct(passes[path], "pgCpu") * 1000
  }
  // A label longer than the column gets a line of its own.
  const labelOf = (path: keyof typeof passes) => (labels[path].length > 34 ? `${labels[path]}\n    ` : `${labels[path].padEnd(34)} `)
  const row = (path: keyof typeof passes) =>
    `  ${labelOf(path)}${passes[path]
      .map((f) => (f.products / f.seconds).toFixed(1))
      .join(", ")
      .padEnd(16)} products/s; over all rounds ${overall(passes[path]).toFixed(1)}` +
    `${path === "medusa" ? "" : ` = ${(overall(passes[path]) / csv).toFixed(2)}× the CSV import`}; app CPU ${(perProduct(passes[path], "cpu") * 1000).toFixed(1)} ms/product, ` +
    `PostgreSQL CPU ${(perProduct(passes[path], "pgCpu") * 1000).toFixed(1)} ms/product`
  console.log(
    `side by side (${rounds} round${rounds === 1 ? "" : "s"}, goals: bulk ≥ 5× and workflows ≥ 1.5× the CSV import; load ${load()}):\n` +
      shown.map(row).join("\n")
  )
  return results
}

if (require.main === module) {
  benchImport().then(
    () => process.exit(0),
    (e) => {
      console.error(e)
      process.exit(1)
    }
  )
}
