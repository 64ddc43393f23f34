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
  stop(): Promise<void>
}

export async function startBenchShop(label: string, seed: number, size?: number): Promise<BenchShop> {
  const products = size ?? Number(process.env.BENCH_PRODUCTS ?? 10_000)
  ensurePluginBuilt()
  const sb = await startSandbox({ products, seed, apiKey: `bench-${randomUUID()}`, rpm: 1_000_000, concurrency: 3, port: 0, controlPort: 0 })
  const db = await createTestDatabase(label.replace(/-/g, "_"))
  const app = await startMedusaApp({
    databaseUrl: db.url,
    label,
    env: {
      CATALOG_SYNC_REDIS_PREFIX: `mcs-bench-${randomUUID()}`,
      CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000),
      CATALOG_BASE_URL: "",
      CATALOG_API_KEY: "",
    },
    bootTimeoutMs: 180_000,
  })
  return {
    products,
    sb,
    db,
    app,
    stop: async () => {
      await app.stop()
      await db.drop()
      await sb.close()
    },
  }
}
