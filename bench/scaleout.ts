/**
 * Scale-out benchmark: a full sync of BENCH_PRODUCTS products (default 10,000) written by
 * BENCH_WRITERS app processes (default 2; each a page writer, runs keeping BENCH_PAGES_IN_FLIGHT
 * pages in flight, default twice the writers), against a sandbox allowing BENCH_RPM requests a minute
 * (default: no practical limit; 60 is the API's own limit, where the API is the ceiling:
 * 10,000 products = 50 pages of 200 = about 50 s). Prints products/s, the CPU of every app
 * process per product, the pages each process wrote and the load average.
 * Run alone: `npx tsx bench/scaleout.ts`, or `npm run bench -- scaleout`.
 */
import { loadavg } from "node:os"
import { configure, sql, waitForRun } from "../integration-tests/medusa/poll-and-query"
import { startBenchShop } from "./bench-shop"
import { cpuSeconds } from "./sync"

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")

export async function benchScaleout(): Promise<Record<string, number>> {
  const writers = Number(process.env.BENCH_WRITERS ?? 2)
  const rpm = process.env.BENCH_RPM ? Number(process.env.BENCH_RPM) : undefined
  const pagesInFlight = process.env.BENCH_PAGES_IN_FLIGHT ? Number(process.env.BENCH_PAGES_IN_FLIGHT) : undefined
  const shop = await startBenchShop("bench-scaleout", 3, undefined, { writers, rpm, pagesInFlight })
  const { sb, db, app, others } = shop
  const apps = [app, ...others]
  try {
    const cpu = () => apps.reduce((sum, a) => sum + cpuSeconds(a.pid), 0)
    const cpuBefore = cpu()
    const loadBefore = load()
    const saved = await configure(app, { base_url: sb.baseUrl, api_key: sb.apiKey, markup_percent: "30" })
    const full = await waitForRun(app, saved.run.id, undefined, 3600_000)
    const used = cpu() - cpuBefore
    if (full.status !== "succeeded") throw new Error(`full sync ${full.status}: ${full.error_message}`)
    const s = (Date.parse(full.finished_at) - Date.parse(full.started_at)) / 1000
    const variants = Number((await sql(db.url, "select count(*)::int as n from product_variant where deleted_at is null"))[0].n)
    const written = apps.map((a) => (a.logs().match(new RegExp(`of run ${full.id}: written here`, "g")) ?? []).length)
    console.log(
      `full sync, ${writers} writer process${writers > 1 ? "es" : ""}${rpm ? `, API held to ${rpm} requests/min` : ""}: ` +
        `${full.created} products, ${variants} variants in ${s.toFixed(1)} s = ${(full.created / s).toFixed(0)} products/s; ` +
        `${full.pages} pages (${writers > 1 ? `written per process: ${written.join(" / ")}` : "written in the run's process"}), ${full.requests_used} requests; ` +
        `app CPU ${used.toFixed(1)} s = ${((used * 1000) / full.created).toFixed(1)} ms/product; load before ${loadBefore}, after ${load()}`
    )
    return {
      writers,
      products: full.created,
      seconds: s,
      products_per_s: full.created / s,
      requests: full.requests_used,
      cpu_ms_per_product: (used * 1000) / full.created,
    }
  } finally {
    await shop.stop()
  }
}

if (require.main === module) {
  benchScaleout().then(
    () => process.exit(0),
    (e) => {
      console.error(e)
      process.exit(1)
    }
  )
}
