/**
 * The workflows write path's first full sync alone, profiled: `npx tsx bench/workflows-profile.ts`.
 * BENCH_PRODUCTS products (default 1,000), BENCH_WRITERS app processes (default 1). Prints
 * products/s, the app's CPU (all its processes) and PostgreSQL's CPU per product, with the load,
 * and the app's per-step time sums (CATALOG_SYNC_PROFILE). BENCH_CPU_PROF=<dir>: each app process
 * writes a V8 CPU profile there (bench/cpu-profile-hook.js: Node 20 refuses --cpu-prof in NODE_OPTIONS).
 */
import { loadavg } from "node:os"
import path from "node:path"
import { configure, waitForRun } from "../integration-tests/medusa/poll-and-query"
import { startBenchShop } from "./bench-shop"
import { markLog } from "./page-writes"
import { appCpu, postgresCpu } from "./import"

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")

async function main() {
  const writers = Number(process.env.BENCH_WRITERS ?? 1)
  const dir = process.env.BENCH_CPU_PROF
  const shop = await startBenchShop("bench-workflows-profile", 3, Number(process.env.BENCH_PRODUCTS ?? 1_000), {
    writers,
    env: { CATALOG_SYNC_WRITE_PATH: "workflows", CATALOG_SYNC_PROFILE: "1", ...(dir ? { CPU_PROF_DIR: dir } : {}) },
    ...(dir ? { nodeOptions: `--require ${path.join(__dirname, "cpu-profile-hook.js")}` } : {}),
  })
  const apps = [shop.app, ...shop.others]
  try {
    const marks = apps.map(markLog)
    const before = appCpu(shop)
    const pg = postgresCpu(shop.db.url)
    const saved = await configure(shop.app, { base_url: shop.sb.baseUrl, api_key: shop.sb.apiKey, markup_percent: "30" })
    const run = await waitForRun(shop.app, saved.run.id, undefined, 3600_000)
    if (run.status !== "succeeded") throw new Error(`full sync ${run.status}: ${run.error_message}`)
    const used = appCpu(shop) - before
    // The profiler hook writes its profile on SIGUSR2 (synchronously, before the stop).
    if (dir) for (const a of apps) process.kill(a.pid, "SIGUSR2")
    if (dir) await new Promise((r) => setTimeout(r, 5000))
    const pgUsed = await pg()
    const s = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000
    console.log(
      `workflows path, ${writers} process(es): ${run.created} products in ${s.toFixed(1)} s = ${(run.created / s).toFixed(1)} products/s; ` +
        `app CPU ${((used * 1000) / run.created).toFixed(1)} ms/product, PostgreSQL CPU ${((pgUsed * 1000) / run.created).toFixed(1)} ms/product; load ${load()}`
    )
    const sums = new Map<string, number>()
    for (const m of marks) for (const [k, v] of m.profile()) sums.set(k, (sums.get(k) ?? 0) + v)
    for (const [k, v] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${String(v).padStart(8)} ms  ${k}`)
  } finally {
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
