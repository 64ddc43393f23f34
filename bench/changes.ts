/**
 * `npm run bench -- changes`: on a synced shop of BENCH_CHANGES_SHOP products (default 6,000), the
 * sandbox changes BENCH_CHANGES products (default 1,000) three times, each followed by a changes
 * sync: only stock (one supplier's stock of one size), only prices (every supplier's costs of the
 * product up 5 %), then mixed (one change each of price, stock, sizes, photos or description, as
 * bench/sync.ts makes them). Each pass prints the run's time, its write time (the sum of the app's
 * per-page "wrote in N ms", i.e. without the waits for the catalog's pages), what the run made of
 * the changes, app CPU and peak RSS, and the load. Goals: 1,000 price- or stock-only changes in
 * ≤ 1 s of write time, 1,000 mixed changes in ≤ 3 s. Last, BENCH_REMOVED products (default 5,000)
 * taken off sale and removed by one changes run (goal ≤ 25 s, ≥ 200 removals/s).
 */
import { loadavg } from "node:os"
import { sql } from "../integration-tests/medusa/poll-and-query"
import { startBenchShop, type BenchShop } from "./bench-shop"
import { runToEnd, syncShop } from "./runs"
import { markLog } from "./page-writes"
import { timeRemovals } from "./removals"
import { cpuSeconds, sampleRss } from "./sync"

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")

type Pass = { label: string; goalS: number; change: (ids: string[]) => void }

async function measurePass(shop: BenchShop, pass: Pass, ids: string[]) {
  const { app } = shop
  pass.change(ids)
  const log = markLog(app)
  const rss = sampleRss(app.pid)
  const cpuBefore = cpuSeconds(app.pid)
  const started = Date.now()
  const { run, paused } = await runToEnd(app, "changes")
  const wallS = (Date.now() - started) / 1000
  const cpu = cpuSeconds(app.pid) - cpuBefore
  const peak = rss.stop()
  const writes = log.since()
  const runS = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000
  console.log(
    `${pass.label}: ${ids.length} products changed at the catalog; the run saw ${run.items_seen} (updated ${run.updated}, ` +
      `stock only ${run.stock_only}, unchanged ${run.unchanged}, created ${run.created}, removed ${run.removed})` +
      `${paused.length ? `, paused by the brake ${paused.length}× and confirmed` : ""}; ` +
      `write time ${(writes.writeMs / 1000).toFixed(2)} s over ${writes.pages} pages (goal ≤ ${pass.goalS} s; ` +
      `slowest page ${Math.max(0, ...writes.perPage)} ms), waits for pages ${(writes.fetchWaitMs / 1000).toFixed(2)} s, ` +
      `run ${runS.toFixed(2)} s (${wallS.toFixed(1)} s from request to seen finished); app CPU ${cpu.toFixed(1)} s; ` +
      `app peak RSS ${peak.toFixed(0)} MB; load ${load()}`
  )
  if (process.env.BENCH_PROFILE === "1") {
    for (const [label, ms] of log.profile().slice(0, 25)) console.log(`  ${String(ms).padStart(6)} ms  ${label}`)
  }
  return { writeS: writes.writeMs / 1000, runS, cpu, seen: run.items_seen }
}

export async function benchChanges(): Promise<Record<string, number>> {
  const size = Number(process.env.BENCH_CHANGES_SHOP ?? 6_000)
  const changes = Number(process.env.BENCH_CHANGES ?? 1_000)
  const shop = await startBenchShop("bench-changes", 7, size)
  const { sb, db } = shop
  const results: Record<string, number> = {}
  try {
    const full = await syncShop(shop)
    // The shop as the next scheduled poll finds it, minutes later, on a PostgreSQL with autovacuum
    // on (the default): the tables the first sync filled analyzed and vacuumed. A server with
    // autovacuum off (as on the machine these figures were first taken on) never gets statistics,
    // and the planner may pick other plans for the same reads.
    // BENCH_CHANGES_ANALYZE=0 leaves that out: the shop as such a server has it.
    if (process.env.BENCH_CHANGES_ANALYZE === "0") {
      console.log(`shop synced: ${full.created} products; not analyzed (BENCH_CHANGES_ANALYZE=0); load ${load()}`)
    } else {
      const vacuumStarted = Date.now()
      await sql(db.url, "vacuum analyze")
      console.log(`shop synced: ${full.created} products; vacuum analyze ${((Date.now() - vacuumStarted) / 1000).toFixed(1)} s; load ${load()}`)
    }
    const all = (await sql(db.url, "select catalog_id from mcs_product_map order by catalog_id")).map((r) => String(r.catalog_id))
    // One change of the given kinds to each product; a draw that changes nothing (a size change of a
    // product without sizes, stock of a supplier carrying no size) is drawn again.
    const changeEach = (ids: string[], kinds: string[]) => {
      for (const id of ids) {
        for (let attempt = 0; attempt < 10; attempt++) {
          const { changed } = sb.control.mutate({ count: 1, ids: [id], kinds }) as { changed: unknown[] }
          if (changed.length) break
        }
      }
    }
    const passes: Pass[] = [
      { label: "stock only", goalS: 1, change: (ids) => changeEach(ids, ["stock"]) },
      { label: "prices only", goalS: 1, change: (ids) => sb.control.mutate({ scale_ids: ids, scale_percent: 105 }) },
      { label: "mixed", goalS: 3, change: (ids) => changeEach(ids, ["price", "stock", "sizes", "photos", "description"]) },
    ]
    for (const [i, pass] of passes.entries()) {
      // Each pass changes other products where the shop has enough of them.
      const from = (i * changes) % Math.max(1, all.length - changes + 1)
      const ids = all.slice(from, from + changes)
      const r = await measurePass(shop, pass, ids)
      const key = pass.label.replace(/ /g, "_")
      results[`${key}_write_s`] = r.writeS
      results[`${key}_run_s`] = r.runS
      results[`${key}_app_cpu_s`] = r.cpu
    }
    const removed = await timeRemovals(shop, Math.min(Number(process.env.BENCH_REMOVED ?? 5_000), all.length))
    results.removed = removed.removed
    results.removal_s = removed.seconds
    results.removal_write_s = removed.writeS
    results.removals_per_s = removed.removed / removed.seconds
    return results
  } finally {
    await shop.stop()
  }
}

if (require.main === module) {
  benchChanges().then(
    () => process.exit(0),
    (e) => {
      console.error(e)
      process.exit(1)
    }
  )
}
