/**
 * Catalog client benchmarks (`npm run bench -- client`, or alone: `npx tsx bench/client.ts`).
 *
 * 1. Limiter accuracy: the sandbox allows N requests a minute (default 600) and 3 at once; the
 *    client learns that from /v1/me and runs flat out for D seconds (default 30) with more
 *    callers than slots. Reported: requests a minute achieved / the limit, and 429s (must be 0).
 * 2. Export memory: 100,000 products through the changes feed to NDJSON, in a child process so
 *    its peak RSS is the client's alone (the sandbox stays in this process).
 *
 * Env: BENCH_CLIENT_RPM, BENCH_CLIENT_SECONDS, BENCH_CLIENT_PRODUCTS.
 */
import { execFile } from "node:child_process"
import { mkdtemp, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { randomUUID } from "node:crypto"
import Redis from "ioredis"
import { startSandbox } from "../sandbox/server"
import { CatalogClient, RedisRateLimiter } from "../src/catalog-client"
import { exportCatalog } from "../src/catalog-client/cli/export-catalog"

const API_KEY = "bench-key"
/** The sandbox runs with raised limits; let the client adopt them (its default ceiling is 60/min, 3 at once). */
const BENCH_CEILING = { requestsPerMinute: 1_000_000_000, maxConcurrent: 1000 }

type LimiterResult = {
  limitRpm: number
  seconds: number
  requests: number
  achievedRpm: number
  ratio: number
  /** Rate after the opening burst of 3 (the pace the limiter holds under sustained load). */
  pacedRpm: number
  rateLimited: number
}

export interface ClientBenchResult {
  limiter: LimiterResult
  sharedLimiter: LimiterResult | null
  export: {
    products: number
    pages: number
    seconds: number
    productsPerSecond: number
    fileMb: number
    peakRssMb: number
    baselineRssMb: number
    peakHeapMb: number
  }
}

/**
 * "memory": one client. "redis": two clients with their own RedisRateLimiter on one key, as a
 * server and a worker instance would run, sharing the key's budget through Redis.
 */
async function benchLimiter(limitRpm: number, seconds: number, mode: "memory" | "redis"): Promise<LimiterResult> {
  const sandbox = await startSandbox({ products: 2000, seed: 7, apiKey: API_KEY, rpm: limitRpm, concurrency: 3, dailyQuota: 1e9 })
  const redis = mode === "redis" ? new Redis({ host: "127.0.0.1", port: 6379, maxRetriesPerRequest: 2 }) : null
  const prefix = `bench:catalog-client:${randomUUID()}`
  const make = () =>
    new CatalogClient({
      baseUrl: sandbox.baseUrl,
      apiKey: API_KEY,
      limitCeiling: BENCH_CEILING,
      ...(redis ? { limiter: new RedisRateLimiter({ redis, apiKey: API_KEY, prefix, ceiling: BENCH_CEILING }) } : {}),
    })
  const clients = mode === "redis" ? [make(), make()] : [make()]
  try {
    for (const client of clients) await client.me() // adopts the sandbox's limits
    const ids = sandbox.state.catalog.liveProducts().map((p) => p.idText)
    const before = (sandbox.control.stats() as { requests: number }).requests
    const started = Date.now()
    const deadline = started + seconds * 1000
    let next = 0
    // Six callers for three slots: the limiter, not the callers, sets the pace.
    const caller = async (client: CatalogClient) => {
      while (Date.now() < deadline) {
        const signal = AbortSignal.timeout(Math.max(1, deadline - Date.now()))
        await client.getProduct(ids[next++ % ids.length], { signal }).catch((error) => {
          if (error?.name !== "AbortedError") throw error
        })
      }
    }
    await Promise.all(Array.from({ length: 6 }, (_, i) => caller(clients[i % clients.length])))
    const elapsed = (Date.now() - started) / 1000
    const stats = sandbox.control.stats() as { requests: number; rate_limited: { total: number } }
    const requests = stats.requests - before
    const achievedRpm = (requests / elapsed) * 60
    return {
      limitRpm,
      seconds: elapsed,
      requests,
      achievedRpm,
      ratio: achievedRpm / limitRpm,
      pacedRpm: (Math.max(0, requests - 3) / elapsed) * 60,
      rateLimited: stats.rate_limited.total,
    }
  } finally {
    await Promise.all(clients.map((c) => c.close()))
    if (redis) {
      const keys = await redis.keys(`${prefix}*`)
      if (keys.length) await redis.del(...keys)
      await redis.quit()
    }
    await sandbox.close()
  }
}

/** Runs in the child process: exports and reports its own memory. */
async function exportChild(baseUrl: string, out: string): Promise<void> {
  let peakHeap = 0
  const baselineRss = process.memoryUsage().rss
  const sampler = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)
  }, 50)
  const client = new CatalogClient({ baseUrl, apiKey: API_KEY, limitCeiling: BENCH_CEILING })
  const started = Date.now()
  const result = await exportCatalog(client, { out, limit: 200 })
  const seconds = (Date.now() - started) / 1000
  clearInterval(sampler)
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)
  await client.close()
  process.stdout.write(
    JSON.stringify({
      products: result.products,
      pages: result.pages,
      seconds,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      baselineRssMb: baselineRss / 1024 / 1024,
      peakHeapMb: peakHeap / 1024 / 1024,
    }) + "\n"
  )
}

async function benchExport(products: number): Promise<ClientBenchResult["export"]> {
  const sandbox = await startSandbox({ products, seed: 11, apiKey: API_KEY, rpm: 100_000_000, concurrency: 3, dailyQuota: 1e9 })
  const dir = await mkdtemp(join(tmpdir(), "bench-client-"))
  const out = join(dir, "catalog.ndjson")
  try {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [require.resolve("tsx/cli"), __filename, "--export-child", sandbox.baseUrl, out],
        { maxBuffer: 1 << 20 },
        (error, stdout, stderr) => (error ? reject(new Error(`export child failed: ${stderr}`)) : resolve(stdout))
      )
    })
    const child = JSON.parse(stdout.trim().split("\n").pop()!)
    const fileMb = (await stat(out)).size / 1024 / 1024
    return { ...child, fileMb, productsPerSecond: child.products / child.seconds }
  } finally {
    await sandbox.close()
    await rm(dir, { recursive: true, force: true })
  }
}

export async function benchClient(): Promise<ClientBenchResult> {
  const rpm = Number(process.env.BENCH_CLIENT_RPM ?? 600)
  const seconds = Number(process.env.BENCH_CLIENT_SECONDS ?? 30)
  const products = Number(process.env.BENCH_CLIENT_PRODUCTS ?? 100_000)

  const report = (label: string, r: LimiterResult) =>
    console.log(
      `${label}: ${r.requests} requests in ${r.seconds.toFixed(1)} s = ${r.achievedRpm.toFixed(0)}/min ` +
        `= ${(r.ratio * 100).toFixed(1)}% of the limit (after the opening burst of 3: ` +
        `${r.pacedRpm.toFixed(0)}/min = ${((r.pacedRpm / r.limitRpm) * 100).toFixed(1)}%); 429 answers: ${r.rateLimited}`
    )
  console.log(`client limiter: sandbox limit ${rpm}/min and 3 at once, one client, ${seconds} s flat out…`)
  const limiter = await benchLimiter(rpm, seconds, "memory")
  report("client limiter (memory)", limiter)

  let sharedLimiter: LimiterResult | null = null
  if (process.env.BENCH_CLIENT_SKIP_REDIS !== "1") {
    console.log(`client limiter: same, two clients sharing the key through RedisRateLimiter…`)
    sharedLimiter = await benchLimiter(rpm, seconds, "redis").catch((error) => {
      console.log(`client limiter (redis): skipped, ${error?.message ?? error}`)
      return null
    })
    if (sharedLimiter) report("client limiter (redis, 2 clients)", sharedLimiter)
  }

  console.log(`client export: ${products} products through the changes feed (child process)…`)
  const exported = await benchExport(products)
  console.log(
    `client export: ${exported.products} products in ${exported.pages} pages, ${exported.seconds.toFixed(1)} s ` +
      `(${exported.productsPerSecond.toFixed(0)}/s, sandbox on the same 2 cores), file ${exported.fileMb.toFixed(0)} MB; ` +
      `peak RSS ${exported.peakRssMb.toFixed(0)} MB (at start ${exported.baselineRssMb.toFixed(0)} MB), peak heap ${exported.peakHeapMb.toFixed(0)} MB`
  )
  return { limiter, sharedLimiter, export: exported }
}

if (require.main === module) {
  const args = process.argv.slice(2)
  const job = args[0] === "--export-child" ? exportChild(args[1], args[2]) : benchClient().then(() => undefined)
  job.then(
    () => process.exit(0),
    (error) => {
      console.error(error)
      process.exit(1)
    }
  )
}
