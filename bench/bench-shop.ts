// One benchmark shop: a sandbox of BENCH_PRODUCTS products (default 10,000) with no rate limit,
// a fresh database and a Medusa app with the plugin whose schedule never fires on its own.
import { randomUUID } from "node:crypto"
import { createTestDatabase, ensurePluginBuilt, startMedusaApp, type MedusaApp } from "../integration-tests/harness"
import { startSandbox, type Sandbox } from "../sandbox/server"

export interface BenchShop {
  products: number
  sb: Sandbox
  db: Awaited<ReturnType<typeof createTestDatabase>>
  app: MedusaApp
  /** Further app processes on the same database and Redis (page writers), when asked for. */
  others: MedusaApp[]
  stop(): Promise<void>
}

export interface BenchShopOptions {
  /**
   * App processes, each a page writer (CATALOG_SYNC_PAGE_WRITERS 1), with runs keeping
   * `pagesInFlight` pages in flight. 1 (default): one app writing its pages itself, as always.
   */
  writers?: number
  pagesInFlight?: number
  /** The sandbox's requests per minute (default: no practical limit). */
  rpm?: number
  /** Node options for the app processes (BENCH_APP_NODE_OPTIONS, when set, goes first). */
  nodeOptions?: string
  /** More environment for the app processes (the write path, say). */
  env?: Record<string, string>
}

export async function startBenchShop(label: string, seed: number, size?: number, opts: BenchShopOptions = {}): Promise<BenchShop> {
  const products = size ?? Number(process.env.BENCH_PRODUCTS ?? 10_000)
  ensurePluginBuilt()
  const sb = await startSandbox({ products, seed, apiKey: `bench-${randomUUID()}`, rpm: opts.rpm ?? 1_000_000, concurrency: 3, port: 0, controlPort: 0 })
  const db = await createTestDatabase(label.replace(/-/g, "_"))
  const writers = opts.writers ?? 1
  const env = {
    CATALOG_SYNC_REDIS_PREFIX: `mcs-bench-${randomUUID()}`,
    CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000),
    CATALOG_BASE_URL: "",
    CATALOG_API_KEY: "",
    // BENCH_PROFILE=1: the app logs each page step's time (the benches print the sums).
    ...(process.env.BENCH_PROFILE === "1" ? { CATALOG_SYNC_PROFILE: "1" } : {}),
    // BENCH_APP_NODE_OPTIONS: node options for the app processes (a --require of a CPU-profiler hook, say).
    ...(process.env.BENCH_APP_NODE_OPTIONS || opts.nodeOptions
      ? { NODE_OPTIONS: [process.env.BENCH_APP_NODE_OPTIONS, opts.nodeOptions].filter(Boolean).join(" ") }
      : {}),
    ...(writers > 1 ? { CATALOG_SYNC_PAGE_WRITERS: "1", CATALOG_SYNC_PAGES_IN_FLIGHT: String(opts.pagesInFlight ?? 2 * writers) } : {}),
    ...opts.env,
  }
  const app = await startMedusaApp({ databaseUrl: db.url, label, env, bootTimeoutMs: 180_000 })
  const others: MedusaApp[] = []
  for (let i = 1; i < writers; i++) others.push(await startMedusaApp({ databaseUrl: db.url, label: `${label}-${i + 1}`, env, bootTimeoutMs: 180_000 }))
  return {
    products,
    sb,
    db,
    app,
    others,
    stop: async () => {
      await Promise.all([app.stop(), ...others.map((o) => o.stop())])
      await db.drop()
      await sb.close()
    },
  }
}
