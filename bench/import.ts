/**
 * `npm run bench -- import`: the plugin's full sync beside Medusa's own CSV product import of the
 * same catalog (BENCH_PRODUCTS, default 3,000; same sandbox seed), alternating on one machine
 * (BENCH_ROUNDS rounds, default 2: plugin, import, plugin, import), each on a fresh database and
 * app. Prints both rates, their ratio, the app's CPU and peak RSS, with the load. Medusa's import
 * writes products, options, variants, images, prices and inventory items, but no stock levels and no categories; the
 * plugin also writes inventory items and levels, categories and translations.
 * Medusa's import is timed from the upload to its workflow's success notification (its last step);
 * the plugin's from the run's start to its end. The ratio is over all rounds (products over
 * seconds); the app's CPU per product is printed beside it, steadier on a shared machine.
 * Then, on the last plugin shop: BENCH_REMOVED removals (default 5,000, at most the catalog),
 * timed as one changes run (bench/removals.ts).
 */
import { loadavg } from "node:os"
import { configure, sql, waitForRun } from "../integration-tests/medusa/poll-and-query"
import { timeRemovals } from "./removals"
import { startBenchShop, type BenchShop } from "./bench-shop"
import { catalogCsv, importCsv, readCatalog } from "./medusa-csv-import"
import { markLog } from "./page-writes"
import { cpuSeconds, sampleRss } from "./sync"

const SEED = 3
const MARKUP = "30"
const load = () => loadavg().map((l) => l.toFixed(1)).join(" ")

interface PassFigures {
  products: number
  seconds: number
  cpu: number
  peakRss: number
  written: Written
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
  `app CPU ${f.cpu.toFixed(1)} s (${((f.cpu * 1000) / f.products).toFixed(1)} ms/product); app peak RSS ${f.peakRss.toFixed(0)} MB; ` +
  `wrote ${f.written.variants} variants, ${f.written.prices} prices, ${f.written.inventoryItems} inventory items, ` +
  `${f.written.stockLevels} stock levels (${f.written.stockedQuantity} units); load ${load()}`

async function pluginFullSync(shop: BenchShop): Promise<PassFigures> {
  const { app, sb } = shop
  const rss = sampleRss(app.pid)
  const cpuBefore = cpuSeconds(app.pid)
  const saved = await configure(app, { base_url: sb.baseUrl, api_key: sb.apiKey, markup_percent: MARKUP })
  const run = await waitForRun(app, saved.run.id, undefined, 3600_000)
  const peakRss = rss.stop()
  if (run.status !== "succeeded") throw new Error(`full sync ${run.status}: ${run.error_message}`)
  const seconds = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000
  const cpu = cpuSeconds(app.pid) - cpuBefore
  return { products: run.created, seconds, cpu, peakRss, written: await countWritten(shop.db.url) }
}

async function medusaImport(shop: BenchShop): Promise<PassFigures> {
  const { app, sb, db } = shop
  const cards = await readCatalog(sb.baseUrl, sb.apiKey, MARKUP)
  const [{ id: salesChannelId }] = await sql(db.url, "select id from sales_channel where deleted_at is null order by created_at limit 1")
  const [{ id: shippingProfileId }] = await sql(db.url, "select id from shipping_profile where deleted_at is null order by created_at limit 1")
  const csv = catalogCsv(cards, { salesChannelId, shippingProfileId, currency: "uah" })
  const rss = sampleRss(app.pid)
  const cpuBefore = cpuSeconds(app.pid)
  const { seconds, productRowsSeconds, lastRowSeconds } = await importCsv(app, db.url, csv, cards.length)
  const peakRss = rss.stop()
  const cpu = cpuSeconds(app.pid) - cpuBefore
  console.log(
    `  Medusa CSV import: every product row after ${productRowsSeconds?.toFixed(1)} s, last product, price, inventory item or link row after ` +
      `${lastRowSeconds.toFixed(1)} s, success notification (the end timed) after ${seconds.toFixed(1)} s`
  )
  return { products: cards.length, seconds, cpu, peakRss, written: await countWritten(db.url) }
}

export async function benchImport(): Promise<Record<string, number>> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
  const plugin: PassFigures[] = []
  const medusa: PassFigures[] = []
  const results: Record<string, number> = {}
  for (let round = 1; round <= rounds; round++) {
    for (const path of ["plugin", "medusa"] as const) {
      const shop = await startBenchShop(`bench-import-${path}`, SEED, Number(process.env.BENCH_PRODUCTS ?? 3_000))
      const last = round === rounds && path === "plugin"
      try {
        if (path === "plugin") {
          const f = await pluginFullSync(shop)
          plugin.push(f)
          console.log(describe(`round ${round}, plugin full sync`, f))
          if (last) {
            const r = await timeRemovals(shop, Math.min(Number(process.env.BENCH_REMOVED ?? 5_000), f.products))
            results.removed = r.removed
            results.removal_seconds = r.seconds
            results.removals_per_s = r.removed / r.seconds
          }
        } else {
          const f = await medusaImport(shop)
          medusa.push(f)
          console.log(describe(`round ${round}, Medusa CSV import`, f))
        }
      } finally {
        await shop.stop()
      }
    }
  }
  const rate = (fs: PassFigures[]) => fs.map((f) => f.products / f.seconds)
  // Over all rounds: products over seconds, so one round slowed by the machine's other work weighs as its time.
  const overall = (fs: PassFigures[]) => fs.reduce((a, f) => a + f.products, 0) / fs.reduce((a, f) => a + f.seconds, 0)
  const cpuPerProduct = (fs: PassFigures[]) => fs.reduce((a, f) => a + f.cpu, 0) / fs.reduce((a, f) => a + f.products, 0)
  const pluginRate = overall(plugin)
  const medusaRate = overall(medusa)
  const cpuRatio = cpuPerProduct(medusa) / cpuPerProduct(plugin)
  results.plugin_products_per_s = pluginRate
  results.medusa_import_products_per_s = medusaRate
  results.ratio = pluginRate / medusaRate
  results.app_cpu_ratio = cpuRatio
  // Each round's plugin pass beside the import that followed it.
  const pairs = plugin.map((p, i) => (medusa[i] ? (p.products / p.seconds / (medusa[i].products / medusa[i].seconds)).toFixed(2) + "×" : "-"))
  console.log(
    `plugin full sync ${rate(plugin).map((r) => r.toFixed(1)).join(", ")} products/s; Medusa CSV import ` +
      `${rate(medusa).map((r) => r.toFixed(1)).join(", ")} products/s; ratio per round ${pairs.join(", ")}; ` +
      `over all rounds ${pluginRate.toFixed(1)} vs ${medusaRate.toFixed(1)} products/s = ${(pluginRate / medusaRate).toFixed(2)}× ` +
      `(goal ≥ 2.5×, stock levels written); app CPU per product ${(cpuPerProduct(plugin) * 1000).toFixed(1)} vs ` +
      `${(cpuPerProduct(medusa) * 1000).toFixed(1)} ms = ${cpuRatio.toFixed(2)}× less; load ${load()}`
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
