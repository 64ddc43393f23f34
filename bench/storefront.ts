/**
 * Storefront during a first sync (issue 44): `npm run bench -- storefront`. For each setup (one
 * process in `shared` mode; a `server` instance serving the shop and a `worker` instance running
 * the sync), a fresh shop syncs BENCH_STOREFRONT_SEED_PRODUCTS products (default 1,000) from a
 * sandbox with no rate limit, then a steady probe (bench/storefront-probe.ts: at most 2 shoppers,
 * 4 operations a second) measures the store API idle, during a first sync of a catalog of
 * BENCH_STOREFRONT_PRODUCTS (default 20,000) served at the API's real 60 requests a minute, and
 * after it with no sync running. Prints p50, p95, p99 per kind and phase, the ratios to idle, the
 * sync's request rate against the API's ceiling, the app's event-loop delay the run logged, and the load and
 * the machine's CPU check before each phase.
 * BENCH_STOREFRONT_SETUPS=one,split picks setups; BENCH_STOREFRONT_IDLE_S / _AFTER_S the probe's length;
 * BENCH_STOREFRONT_PRODUCTS=50000 the larger catalog; BENCH_STOREFRONT_WORKER_NICE the worker's niceness
 * (the plugin's workerNice; default 10).
 */
import { randomUUID } from "node:crypto"
import { loadavg } from "node:os"
import { createTestDatabase, ensurePluginBuilt, startMedusaApp, type MedusaApp } from "../integration-tests/harness"
import { configure, waitFor, waitForRun } from "../integration-tests/medusa/poll-and-query"
import { startSandbox } from "../sandbox/server"
import { machineSpeed } from "./machine-speed"
import { cpuSeconds } from "./sync"
import { figuresOf, PROBE_KINDS, probe, type KindFigures, type ProbeKind, type ProbeSample, type StoreTarget } from "./storefront-probe"

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")

const SETUPS = { one: "one process (shared)", split: "server + worker" } as const
type Setup = keyof typeof SETUPS

async function storeTarget(app: MedusaApp): Promise<StoreTarget> {
  const keys = await app.admin("/admin/api-keys?type=publishable&limit=1")
  const key = keys.body?.api_keys?.[0] ?? (await app.admin("/admin/api-keys", { body: { title: "bench", type: "publishable" } })).body.api_key
  const channels = await app.admin("/admin/sales-channels?limit=100")
  await app.admin(`/admin/api-keys/${key.id}/sales-channels`, { body: { add: channels.body.sales_channels.map((c: any) => c.id) } })
  const regions = await app.admin("/admin/regions?limit=50")
  const region = regions.body.regions.find((r: any) => r.currency_code === "uah") ?? regions.body.regions[0]
  if (!region) throw new Error("no region: the first sync should have made one")
  return { url: app.url, publishableKey: key.token, regionId: region.id }
}

function line(label: string, f: Record<ProbeKind | "all", KindFigures>, idle?: Record<ProbeKind | "all", KindFigures>): string {
  const kinds: (ProbeKind | "all")[] = ["all", ...PROBE_KINDS]
  const parts = kinds.map((k) => {
    const x = f[k]
    const ratio = idle && idle[k].p95 ? ` (${(x.p95 / idle[k].p95).toFixed(2)}×)` : ""
    return `${k} ${x.p50.toFixed(0)}/${x.p95.toFixed(0)}/${x.p99.toFixed(0)}${ratio} n=${x.n}${x.errors ? ` ERR=${x.errors}` : ""}`
  })
  return `  ${label.padEnd(7)} p50/p95/p99 ms: ${parts.join("; ")}`
}

async function probeFor(target: StoreTarget, seconds: number): Promise<ProbeSample[]> {
  const until = Date.now() + seconds * 1000
  return probe(target, () => Date.now() >= until)
}

async function benchSetup(setup: Setup, seedProducts: number, products: number): Promise<Record<string, number>> {
  ensurePluginBuilt()
  const small = await startSandbox({
    products: seedProducts,
    seed: 44,
    apiKey: `bench-${randomUUID()}`,
    rpm: 1_000_000,
    concurrency: 3,
    port: 0,
    controlPort: 0,
  })
  const large = await startSandbox({ products, seed: 44, apiKey: `bench-${randomUUID()}`, rpm: 60, concurrency: 3, port: 0, controlPort: 0 })
  const db = await createTestDatabase(`bench_storefront_${setup}`)
  const env = {
    CATALOG_SYNC_REDIS_PREFIX: `mcs-bench-${randomUUID()}`,
    CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000),
    CATALOG_BASE_URL: "",
    CATALOG_API_KEY: "",
    NODE_ENV: "production",
  }
  const apps: MedusaApp[] = []
  try {
    const shop = await startMedusaApp({
      databaseUrl: db.url,
      label: `bench-storefront-${setup}`,
      env,
      workerMode: setup === "one" ? "shared" : "server",
      bootTimeoutMs: 300_000,
    })
    apps.push(shop)
    if (setup === "split") {
      // The worker's niceness is the plugin's (workerNice, default 10); BENCH_STOREFRONT_WORKER_NICE=0 measures without it.
      const nice = process.env.BENCH_STOREFRONT_WORKER_NICE
      const workerEnv = nice === undefined ? env : { ...env, CATALOG_SYNC_WORKER_NICE: nice }
      apps.push(await startMedusaApp({ databaseUrl: db.url, label: "bench-storefront-worker", env: workerEnv, workerMode: "worker", bootTimeoutMs: 300_000 }))
    }
    const seeded = await configure(shop, { base_url: small.baseUrl, api_key: small.apiKey, markup_percent: "30", brake: { remove_percent: "100" } })
    const first = await waitForRun(shop, seeded.run.id, undefined, 1800_000)
    if (first.status !== "succeeded") throw new Error(`seed sync ${first.status}: ${first.error_message}`)
    const target = await storeTarget(shop)
    console.log(`${SETUPS[setup]}: shop seeded with ${first.created} products; probing idle (load ${load()})`)
    const idleSeconds = Number(process.env.BENCH_STOREFRONT_IDLE_S ?? 60)
    // The machine's speed before each phase: it can move between phases, and a ratio across a move says little.
    const speed = () => {
      const { jsonMs, loopMs } = machineSpeed()
      return `CPU check ${jsonMs}/${loopMs} ms`
    }
    const speedIdle = speed()
    const idleSamples = await probeFor(target, idleSeconds)
    const idle = figuresOf(idleSamples)
    const loadIdle = load()

    // The catalog grows: the shop's first full sync of the large catalog, at the API's ceiling.
    const cpuBefore = apps.reduce((s, a) => s + cpuSeconds(a.pid), 0)
    const speedDuring = speed()
    const saved = await configure(shop, { base_url: large.baseUrl, api_key: large.apiKey })
    const runId: string = saved.run?.id ?? (await shop.admin("/admin/catalog-sync/runs", { body: { mode: "full" } })).body.run.id
    await waitFor(
      `run ${runId} running`,
      async () => ["running", "succeeded", "failed"].includes((await shop.admin(`/admin/catalog-sync/runs/${runId}`)).body?.run?.status),
      600_000
    )
    let done = false
    const finished = waitForRun(shop, runId, undefined, 7200_000).finally(() => {
      done = true
    })
    const duringSamples = await probe(target, () => done)
    const run = await finished
    const loadDuring = load()
    const cpu = apps.reduce((s, a) => s + cpuSeconds(a.pid), 0) - cpuBefore
    if (run.status !== "succeeded") throw new Error(`sync ${run.status}: ${run.error_message}`)
    const during = figuresOf(duringSamples)
    const seconds = (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000
    const perMinute = (run.requests_used / seconds) * 60
    // The API's ceiling (60 a minute, a burst of 3): the fastest these requests could have been made.
    const ceilingSeconds = Math.max(0, run.requests_used - 3)
    const ceilingShare = seconds > 0 ? Math.min(1, ceilingSeconds / seconds) : 0

    const afterSeconds = Number(process.env.BENCH_STOREFRONT_AFTER_S ?? 60)
    const speedAfter = speed()
    const afterSamples = await probeFor(target, afterSeconds)
    const after = figuresOf(afterSamples)
    const firstErrors = new Map<string, string>()
    for (const sample of [...idleSamples, ...duringSamples, ...afterSamples])
      if (sample.error && !firstErrors.has(sample.kind)) firstErrors.set(sample.kind, sample.error)
    const delays = apps.flatMap((a) => a.logs().match(/catalog sync: event loop during run [^\n]*/g) ?? [])
    const writes = apps.flatMap((a) => a.logs().match(/catalog sync: page writes here [^\n]*/g) ?? [])

    console.log(`${SETUPS[setup]}: ${seedProducts} → ${products} products`)
    console.log(line("idle", idle) + `  [load ${loadIdle}; before it ${speedIdle}]`)
    console.log(line("during", during, idle) + `  [load ${loadDuring}; before it ${speedDuring}]`)
    console.log(line("after", after, idle) + `  [load ${load()}; before it ${speedAfter}]`)
    console.log(
      `  sync: ${run.created} created in ${seconds.toFixed(1)} s = ${(run.created / seconds).toFixed(0)} products/s, ${run.requests_used} requests = ` +
        `${perMinute.toFixed(1)}/min: ${(ceilingShare * 100).toFixed(0)} % of the API's ceiling (${ceilingSeconds} s at 60/min with a burst of 3; goal ≥ 90 %); ` +
        `app CPU ${(cpu / seconds).toFixed(2)} cores`
    )
    // The runs in the order they ran: the seed sync, the large catalog's, then any the schedule queued.
    const runNames = ["seed sync", "large sync"]
    delays.forEach((d, i) => console.log(`  ${runNames[i] ?? "later run"}: ${d.replace(/",".*$/, "")}`))
    // How busy the page writes kept the sync's process, and how they were paced (src/sync-run/write-pacing.ts).
    writes.forEach((w, i) => console.log(`  ${runNames[i] ?? "later run"}: ${w.replace(/",".*$/, "")}`))
    for (const [kind, error] of firstErrors) console.log(`  first ${kind} error: ${error}`)
    return {
      idle_p95: idle.all.p95,
      during_p95: during.all.p95,
      after_p95: after.all.p95,
      during_ratio: during.all.p95 / idle.all.p95,
      after_list_ratio: after.list.p95 / idle.list.p95,
      after_product_ratio: after.product.p95 / idle.product.p95,
      errors: idle.all.errors + during.all.errors + after.all.errors,
      api_ceiling_percent: ceilingShare * 100,
    }
  } finally {
    await Promise.all(apps.map((a) => a.stop()))
    await db.drop()
    await small.close()
    await large.close()
  }
}

export async function benchStorefront(): Promise<Record<string, number>> {
  const products = Number(process.env.BENCH_STOREFRONT_PRODUCTS ?? 20_000)
  const seedProducts = Number(process.env.BENCH_STOREFRONT_SEED_PRODUCTS ?? 1_000)
  const setups = (process.env.BENCH_STOREFRONT_SETUPS ?? "one,split").split(",") as Setup[]
  const figures: Record<string, number> = {}
  for (const setup of setups) {
    if (!(setup in SETUPS)) throw new Error(`unknown setup ${setup}: one or split`)
    for (const [k, v] of Object.entries(await benchSetup(setup, seedProducts, products))) figures[`${setup}_${k}`] = v
  }
  return figures
}

if (require.main === module) {
  benchStorefront().then(
    () => process.exit(0),
    (e) => {
      console.error(e)
      process.exit(1)
    }
  )
}
