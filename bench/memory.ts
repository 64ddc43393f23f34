/**
 * `npm run bench -- memory`: the app's peak RSS over a first full sync of BENCH_BASE_PRODUCTS
 * products (default 5,000) and of BENCH_SCALE_PRODUCTS (default 50,000), each on a fresh shop,
 * and the difference (goal: the larger no more than 150 MB above the smaller). RSS is the app
 * process's and its children's, sampled every 500 ms; a series of it by page (up to 20 points)
 * shows whether it levels off or keeps growing with the catalog. A size of 0 skips that shop.
 *
 * Then the same two syncs again with the app's old space capped at BENCH_MEMORY_OLD_SPACE_MB
 * (default 512; 0 skips them), as a worker given a memory budget runs. Under Node's defaults V8
 * lets garbage pile up to about four times the live heap before a full collection (about 900 MB
 * of heap for the app's 225 MB), a threshold a 5,000-product sync ends below and a 50,000-product
 * sync reaches again and again, so the first pair measures how close the small sync comes to that
 * threshold. With a cap, collections come as the budget needs them: if anything were kept per
 * product, the large sync would run into the cap (slower and slower, then out of memory) instead
 * of holding a flat RSS.
 *
 * BENCH_MEMORY_RPM holds the sandbox to that many requests a minute (60: the API's limit, the pace
 * of a shop's sync); by default it is not held, and the syncs run as fast as the app writes.
 *
 * Every app runs with V8's --trace-gc (app-gc-trace.cjs), and each sync prints its full
 * collections: the heap each left (the live heap, which would grow if anything were kept per
 * product) and when the next began (V8's limit, a multiple of that live heap).
 */
import { loadavg } from "node:os"
import { configure, waitForRun } from "../integration-tests/medusa/poll-and-query"
import { startBenchShop } from "./bench-shop"
import { pageWritesIn } from "./page-writes"
import { cpuSeconds, rssMb } from "./sync"
import { describeCollections, fullCollectionsIn, GC_TRACE_HOOK, summarizeCollections, type CollectionSummary } from "./gc-trace"

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")

interface MemoryFigures {
  products: number
  seconds: number
  idleRss: number
  peakRss: number
  /** [pages written, RSS MB] at each page's end. */
  series: [number, number][]
  /** The full collections V8 ran during the sync. */
  collections: CollectionSummary
}

async function fullSyncMemory(size: number, seed: number, nodeOptions?: string, rpm?: number): Promise<MemoryFigures> {
  const traced = [`--require ${GC_TRACE_HOOK}`, nodeOptions].filter(Boolean).join(" ")
  const shop = await startBenchShop(`bench-memory-${size}`, seed, size, { nodeOptions: traced, rpm })
  const { app, sb } = shop
  try {
    const idleRss = rssMb(app.pid)
    const from = app.logs().length
    const series: [number, number][] = []
    let peak = idleRss
    const sample = () => {
      const rss = rssMb(app.pid)
      peak = Math.max(peak, rss)
      const pages = pageWritesIn(app.logs().slice(from)).pages
      if (pages > (series.at(-1)?.[0] ?? 0)) series.push([pages, rss])
    }
    const timer = setInterval(sample, 500)
    const cpuBefore = cpuSeconds(app.pid)
    let run
    try {
      const saved = await configure(app, { base_url: sb.baseUrl, api_key: sb.apiKey, markup_percent: "30" })
      // An app that dies (out of memory under a cap, say) ends the wait at once.
      run = await Promise.race([
        waitForRun(app, saved.run.id, undefined, 3 * 3600_000),
        app.exited.then((code) => {
          throw new Error(`the app exited (${code}) during the sync: ${app.logs().slice(-2000)}`)
        }),
      ])
    } finally {
      clearInterval(timer)
    }
    sample()
    if (run.status !== "succeeded") throw new Error(`full sync ${run.status}: ${run.error_message}`)
    const seconds = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000
    const cpu = cpuSeconds(app.pid) - cpuBefore
    const step = Math.max(1, Math.ceil(series.length / 20))
    const shown = series.filter((_, i) => i % step === 0 || i === series.length - 1)
    console.log(
      `full sync of ${run.created} products: ${seconds.toFixed(1)} s (${(run.created / seconds).toFixed(1)} products/s), ` +
        `app CPU ${cpu.toFixed(0)} s; app RSS idle ${idleRss.toFixed(0)} MB, peak ${peak.toFixed(0)} MB; load ${load()}`
    )
    console.log(`  RSS by pages written: ${shown.map(([p, r]) => `${p}: ${r.toFixed(0)}`).join(", ")} (MB)`)
    const collections = summarizeCollections(fullCollectionsIn(app.logs().slice(from)))
    console.log(`  V8: ${describeCollections(collections)}`)
    return { products: run.created, seconds, idleRss, peakRss: peak, series, collections }
  } finally {
    await shop.stop()
  }
}

/** A first sync of each size (0 skips one), and the peaks' difference; figures keyed with `prefix`. */
async function peaks(base: number, scale: number, label: string, prefix: string, nodeOptions?: string, rpm?: number): Promise<Record<string, number>> {
  const small = base > 0 ? await fullSyncMemory(base, 13, nodeOptions, rpm) : null
  const large = scale > 0 ? await fullSyncMemory(scale, 13, nodeOptions, rpm) : null
  const results: Record<string, number> = {}
  for (const [key, figures] of [
    ["base", small],
    ["scale", large],
  ] as const) {
    if (!figures) continue
    results[`${prefix}${key}_products`] = figures.products
    results[`${prefix}${key}_peak_rss_mb`] = figures.peakRss
    results[`${prefix}${key}_full_collections`] = figures.collections.count
    if (figures.collections.liveMb) results[`${prefix}${key}_live_heap_max_mb`] = figures.collections.liveMb[1]
  }
  if (small && large) {
    const growth = large.peakRss - small.peakRss
    results[`${prefix}growth_mb`] = growth
    console.log(
      `app peak RSS${label}: ${small.peakRss.toFixed(0)} MB at ${small.products} products, ${large.peakRss.toFixed(0)} MB at ` +
        `${large.products} products: ${growth >= 0 ? "+" : ""}${growth.toFixed(0)} MB (goal ≤ +150 MB); load ${load()}`
    )
    const live = (f: MemoryFigures) => (f.collections.liveMb ? `${f.collections.liveMb[1].toFixed(0)} MB` : "no full collection")
    console.log(
      `  the most live heap a full collection left${label}: ${live(small)} at ${small.products} products, ${live(large)} at ${large.products} products`
    )
  }
  return results
}

export async function benchMemory(): Promise<Record<string, number>> {
  const base = Number(process.env.BENCH_BASE_PRODUCTS ?? 5_000)
  const scale = Number(process.env.BENCH_SCALE_PRODUCTS ?? 50_000)
  const capMb = Number(process.env.BENCH_MEMORY_OLD_SPACE_MB ?? 512)
  if (!Number.isInteger(capMb) || capMb < 0)
    throw new Error(`BENCH_MEMORY_OLD_SPACE_MB must be a whole number of MB (0 skips), not "${process.env.BENCH_MEMORY_OLD_SPACE_MB}"`)
  // BENCH_MEMORY_RPM=60: the sandbox held to the API's limit, so the syncs run at the pace a shop's
  // do (about 200 products/s) instead of as fast as the app writes. V8 sizes its next collection
  // from how fast the old generation fills, which the pace changes.
  const rpm = process.env.BENCH_MEMORY_RPM ? Number(process.env.BENCH_MEMORY_RPM) : undefined
  if (rpm !== undefined && (!Number.isInteger(rpm) || rpm < 1))
    throw new Error(`BENCH_MEMORY_RPM must be a whole number of requests a minute, not "${process.env.BENCH_MEMORY_RPM}"`)
  if (rpm) console.log(`the sandbox held to ${rpm} requests a minute (BENCH_MEMORY_RPM)`)
  // A size of 0 skips that shop (to measure the large one alone when the small one is known).
  const results = await peaks(base, scale, " (Node's default heap)", "", undefined, rpm)
  if (capMb > 0) {
    console.log(`the same syncs with the app's old space capped at ${capMb} MB (--max-old-space-size=${capMb}):`)
    try {
      Object.assign(results, await peaks(base, scale, ` (old space ${capMb} MB)`, "capped_", `--max-old-space-size=${capMb}`, rpm))
    } catch (e) {
      // The first pair's figures are kept.
      console.error(`the syncs with the old space capped at ${capMb} MB failed:`, e)
      process.exitCode = 1
    }
  }
  return results
}

if (require.main === module) {
  benchMemory().then(
    () => process.exit(0),
    (e) => {
      console.error(e)
      process.exit(1)
    }
  )
}
