/**
 * `npm run bench -- import`: the plugin's full sync beside Medusa's own CSV product import of the
 * same catalog (BENCH_PRODUCTS, default 3,000; same sandbox seed), alternating on one machine
 * (BENCH_ROUNDS rounds, default 2: plugin, import, plugin, import), each on a fresh database and
 * app. Prints both rates, their ratio, the app's CPU and peak RSS, with the load. Medusa's import
 * writes products, options, variants, images, prices and inventory items, but no stock levels and no categories; the
 * plugin also writes inventory items and levels, categories and translations.
 * Then, on the last plugin shop: BENCH_REMOVED removals (default 5,000, at most the catalog),
 * confirmed at the safety brake and timed from the confirm.
 */
import { loadavg } from "node:os"
import { configure, sql, waitForRun } from "../integration-tests/medusa/poll-and-query"
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
    `  Medusa CSV import: every product row after ${productRowsSeconds?.toFixed(1)} s, last product/price/inventory row after ` +
      `${lastRowSeconds.toFixed(1)} s, success notification (the end timed) after ${seconds.toFixed(1)} s`
  )
  return { products: cards.length, seconds, cpu, peakRss, written: await countWritten(db.url) }
}

/** Removes `count` products at the sandbox and times the changes sync that removes them in the shop. */
async function removals(shop: BenchShop, count: number) {
  const { app, sb, db } = shop
  const ids = (await sql(db.url, "select catalog_id from catalog_product_map order by catalog_id limit $1", [count])).map((r) => String(r.catalog_id))
  sb.control.mutate({ remove_ids: ids })
  const res = await app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
  if (res.status !== 202) throw new Error(`run refused: ${res.status} ${JSON.stringify(res.body)}`)
  let run = await waitForRun(app, res.body.run.id, ["paused", "succeeded", "failed", "interrupted"], 3600_000)
  // A large share removed pauses at the safety brake; the admin's confirm then applies it, timed alone.
  const cpuBefore = cpuSeconds(app.pid)
  const log = markLog(app)
  if (run.status === "paused") {
    const confirmed = await app.admin(`/admin/catalog-sync/runs/${run.id}/confirm`, { body: {} })
    if (confirmed.status !== 200) throw new Error(`confirm refused: ${confirmed.status} ${JSON.stringify(confirmed.body)}`)
    run = await waitForRun(app, confirmed.body.continued_by.id, undefined, 3600_000)
  }
  const cpu = cpuSeconds(app.pid) - cpuBefore
  const seconds = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000
  const writes = log.since()
  console.log(
    `removals: ${run.removed} products removed in ${seconds.toFixed(1)} s = ${(run.removed / seconds).toFixed(1)} removals/s ` +
      `(page writes ${(writes.writeMs / 1000).toFixed(1)} s over ${writes.pages} pages); app CPU ${cpu.toFixed(1)} s; load ${load()} ` +
      `(goal: 5,000 in ≤ 25 s, ≥ 200 removals/s)`
  )
  return { removed: run.removed, seconds }
}

export async function benchImport(): Promise<Record<string, number>> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
  const plugin: PassFigures[] = []
  const medusa: PassFigures[] = []
  const results: Record<string, number> = {}
  for (let round = 1; round <= rounds; round++) {
    for (const path of ["plugin", "medusa"] as const) {
      const shop = await startBenchShop(`bench-import-${path}`, SEED)
      const last = round === rounds && path === "plugin"
      try {
        if (path === "plugin") {
          const f = await pluginFullSync(shop)
          plugin.push(f)
          console.log(describe(`round ${round}, plugin full sync`, f))
          if (last) {
            const r = await removals(shop, Math.min(Number(process.env.BENCH_REMOVED ?? 5_000), f.products))
            results.removed = r.removed
            results.removal_seconds = r.seconds
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
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]
  const pluginRate = median(rate(plugin))
  const medusaRate = median(rate(medusa))
  results.plugin_products_per_s = pluginRate
  results.medusa_import_products_per_s = medusaRate
  results.ratio = pluginRate / medusaRate
  // Each round's plugin pass beside the import that followed it.
  const pairs = plugin.map((p, i) => (medusa[i] ? (p.products / p.seconds / (medusa[i].products / medusa[i].seconds)).toFixed(2) + "×" : "-"))
  console.log(
    `plugin full sync ${rate(plugin).map((r) => r.toFixed(1)).join(", ")} products/s; Medusa CSV import ` +
      `${rate(medusa).map((r) => r.toFixed(1)).join(", ")} products/s; ratio per round ${pairs.join(", ")}; ` +
      `ratio (medians) ${(pluginRate / medusaRate).toFixed(2)}× (goal ≥ 2.5×, stock levels written); load ${load()}`
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
