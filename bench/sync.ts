/**
 * Sync benchmark: a spawned demo app (built plugin, real PostgreSQL and Redis)
 * against the sandbox with its limits raised. Prints:
 *  - full sync of BENCH_PRODUCTS products (default 10,000): products and variants per
 *    second, and the app process's peak RSS;
 *  - a changes sync of BENCH_CHANGED changed products (default 1,000);
 *  - a poll with no changes: requests and milliseconds;
 *  - a reprice of every product after new pricing rules (bench/reprice.ts): time and API requests;
 *  - the change log's growth over the full sync: rows stored (the cap) and the table's size on
 *    disk before and after (pg_total_relation_size: heap, indexes and TOAST).
 * Each pass also prints the app process's CPU time per product (steadier than products/s when
 * the machine is shared) and the load average at its end.
 * Run alone: `npx tsx bench/sync.ts`. CATALOG_SYNC_PROFILE=1 makes the app log module timings.
 */
import { execFileSync } from "node:child_process"
import { loadavg } from "node:os"
import type { MedusaApp } from "../integration-tests/harness"
import { configure, sql, waitForRun } from "../integration-tests/medusa/poll-and-query"
import { startBenchShop } from "./bench-shop"
import { cpuTicksOf } from "./proc-ticks"
import { measureReprice } from "./reprice"

/** [pid, ppid, rss kB] of every process. */
function processRows(): number[][] {
  const out = execFileSync("ps", ["-e", "-o", "pid=,ppid=,rss="], { encoding: "utf8" })
  return out
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number))
}

/** A process and its descendants. */
function familyOf(pid: number, rows: number[][]): Set<number> {
  const family = new Set([pid])
  let grew = true
  while (grew) {
    grew = false
    for (const [p, pp] of rows) if (family.has(pp) && !family.has(p)) (family.add(p), (grew = true))
  }
  return family
}

/** RSS in MB of a process and its descendants. */
export function rssMb(pid: number): number {
  try {
    const rows = processRows()
    const family = familyOf(pid, rows)
    return rows.filter(([p]) => family.has(p)).reduce((sum, [, , rss]) => sum + rss, 0) / 1024
  } catch {
    return 0
  }
}

/**
 * CPU seconds (user + system) of a process and its descendants so far, from /proc. On a shared
 * machine wall-clock rates move with the load; the app's CPU per product moves much less.
 */
export function cpuSeconds(pid: number): number {
  try {
    let ticks = 0
    for (const p of familyOf(pid, processRows())) ticks += cpuTicksOf(p) ?? 0 // 0: the process ended
    return ticks / 100
  } catch {
    return 0
  }
}

const load = () => loadavg()[0].toFixed(1)

export function sampleRss(pid: number) {
  let peak = 0
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 500)
  return {
    stop: () => {
      clearInterval(timer)
      return Math.max(peak, rssMb(pid))
    },
  }
}

async function run(app: MedusaApp, mode: "changes" | "full") {
  const res = await app.admin("/admin/catalog-sync/runs", { body: { mode } })
  if (res.status !== 202) throw new Error(`run refused: ${res.status} ${JSON.stringify(res.body)}`)
  return waitForRun(app, res.body.run.id, undefined, 3600_000)
}

/** The change-log table's size on disk, indexes and TOAST included. */
async function changeLogBytes(databaseUrl: string): Promise<number> {
  return Number((await sql(databaseUrl, "select pg_total_relation_size('mcs_sync_run_change')::bigint as n"))[0].n)
}

const seconds = (run: { started_at: string; finished_at: string }) => (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000

export async function benchSync(): Promise<Record<string, number>> {
  const shop = await startBenchShop("bench-sync", 3)
  const { products, sb, db, app } = shop
  const changed = Number(process.env.BENCH_CHANGED ?? 1_000)
  const results: Record<string, number> = {}
  try {
    const changeLogBytesBefore = await changeLogBytes(db.url)
    // Full sync: the settings save (a pricing change) enqueues it.
    const rss = sampleRss(app.pid)
    const cpuBeforeFull = cpuSeconds(app.pid)
    const saved = await configure(app, { base_url: sb.baseUrl, api_key: sb.apiKey, markup_percent: "30" })
    const full = await waitForRun(app, saved.run.id, undefined, 3600_000)
    const peak = rss.stop()
    const fullCpu = cpuSeconds(app.pid) - cpuBeforeFull
    if (full.status !== "succeeded") throw new Error(`full sync ${full.status}: ${full.error_message}`)
    const variants = Number((await sql(db.url, "select count(*)::int as n from product_variant where deleted_at is null"))[0].n)
    const fullS = seconds(full)
    results.full_products = full.created
    results.full_variants = variants
    results.full_seconds = fullS
    results.full_products_per_s = full.created / fullS
    results.full_variants_per_s = variants / fullS
    results.full_peak_rss_mb = peak
    results.full_app_cpu_ms_per_product = (fullCpu * 1000) / full.created
    console.log(
      `full sync: ${full.created} products, ${variants} variants in ${fullS.toFixed(1)} s = ` +
        `${(full.created / fullS).toFixed(0)} products/s, ${(variants / fullS).toFixed(0)} variants/s; ` +
        `app peak RSS ${peak.toFixed(0)} MB; app CPU ${fullCpu.toFixed(1)} s = ${((fullCpu * 1000) / full.created).toFixed(1)} ms/product; ` +
        `${full.pages} pages, ${full.requests_used} requests; load ${load()}`
    )

    // The change log keeps at most its cap of rows for the pass, whatever the catalog's size.
    const changeLogBytesAfter = await changeLogBytes(db.url)
    const logRows = Number((await sql(db.url, "select count(*)::int as n from mcs_sync_run_change where run_id = $1", [full.id]))[0].n)
    const omitted = Object.values((full.progress?.change_log_omitted ?? {}) as Record<string, number>).reduce((a, b) => a + b, 0)
    results.change_log_rows = logRows
    results.change_log_bytes_before = changeLogBytesBefore
    results.change_log_bytes_after = changeLogBytesAfter
    console.log(
      `change log over the full sync: ${logRows} rows stored, ${omitted} counted without a row; ` +
        `table ${(changeLogBytesBefore / 1024).toFixed(0)} kB before, ${(changeLogBytesAfter / 1024).toFixed(0)} kB after ` +
        `(+${((changeLogBytesAfter - changeLogBytesBefore) / 1024).toFixed(0)} kB)`
    )

    // Changes sync of `changed` products, every kind but removal and addition.
    const ids = (await sql(db.url, "select catalog_id from mcs_product_map order by catalog_id limit $1", [changed])).map((r) => r.catalog_id)
    for (const id of ids) sb.control.mutate({ count: 1, ids: [id], kinds: ["price", "stock", "sizes", "photos", "description"] })
    const cpuBeforeChanges = cpuSeconds(app.pid)
    const changes = await run(app, "changes")
    const changesCpu = cpuSeconds(app.pid) - cpuBeforeChanges
    const changesS = seconds(changes)
    results.changes_items = changes.items_seen
    results.changes_seconds = changesS
    results.changes_products_per_s = changes.items_seen / changesS
    results.changes_app_cpu_ms_per_product = (changesCpu * 1000) / changes.items_seen
    console.log(
      `changes sync: ${changes.items_seen} changed products (updated ${changes.updated}, stock only ${changes.stock_only}, ` +
        `unchanged ${changes.unchanged}) in ${changesS.toFixed(1)} s = ${(changes.items_seen / changesS).toFixed(0)} products/s; ` +
        `app CPU ${changesCpu.toFixed(1)} s = ${((changesCpu * 1000) / changes.items_seen).toFixed(1)} ms/product; load ${load()}`
    )

    // A poll with nothing changed.
    // Every request the sandbox answered, and the 304s among them (not counted in the daily quota).
    type Counters = { requests: number; not_modified: number }
    const before = sb.control.stats() as Counters
    const idle = await run(app, "changes")
    const after = sb.control.stats() as Counters
    const idleRequests = after.requests - before.requests
    const idleNotModified = after.not_modified - before.not_modified
    results.idle_requests = idleRequests
    results.idle_counted_requests = idleRequests - idleNotModified
    results.idle_ms = seconds(idle) * 1000
    console.log(
      `poll with no changes: ${idleRequests} requests to the API, ${idleRequests - idleNotModified} counted ` +
        `(${idleNotModified} answered 304; ${idle.requests_used} changes pages), ${(seconds(idle) * 1000).toFixed(0)} ms`
    )

    // New pricing rules: every price recomputed from the stored costs, no API request.
    Object.assign(results, await measureReprice(app, db.url, sb))
    return results
  } finally {
    await shop.stop()
  }
}

if (require.main === module) {
  benchSync().then(
    () => process.exit(0),
    (e) => {
      console.error(e)
      process.exit(1)
    }
  )
}
