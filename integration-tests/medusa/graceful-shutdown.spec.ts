// Graceful shutdown: SIGTERM in the middle of a run ends it "interrupted" at a page boundary
// with the cursor kept, the process exits cleanly with every Redis connection closed, and the
// next run continues from the cursor.
import { randomUUID } from "node:crypto"
import Redis from "ioredis"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { configure, sql, waitFor, waitForRun } from "./poll-and-query"

jest.setTimeout(300_000)

const PRODUCTS = 1000
const PAGE = 200

describe("graceful shutdown", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: MedusaApp | null = null
  let sandbox: Sandbox
  const apiKey = `k-${randomUUID()}`
  const env = {
    CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`,
    CATALOG_BASE_URL: "",
    CATALOG_API_KEY: "",
  }

  beforeAll(async () => {
    // Slow answers so the run is still going when the signal comes.
    sandbox = await startSandbox({ products: PRODUCTS, seed: 9, apiKey, rpm: 6000, latencyMs: 700, port: 0, controlPort: 0 })
    db = await createTestDatabase("graceful-shutdown")
  })

  afterAll(async () => {
    await app?.stop()
    await db?.drop()
    await sandbox?.close()
  })

  it("SIGTERM mid-run: interrupted at a page boundary, cursor kept, connections closed; the next run resumes", async () => {
    app = await startMedusaApp({ databaseUrl: db.url, label: "graceful-shutdown-1", env })
    const { run } = await configure(app, { base_url: sandbox.baseUrl, api_key: apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ mode: "full", status: "queued" })

    await waitFor(
      "the first committed page",
      async () => {
        const res = await app!.admin(`/admin/catalog-sync/runs/${run.id}`)
        return res.body.run.status === "running" && res.body.run.pages >= 1
      },
      120_000,
      100
    )

    const pid = app.pid
    const ourConnections = async () => {
      const redis = new Redis(process.env.REDIS_URL || "redis://127.0.0.1:6379")
      try {
        const clients = String(await redis.client("LIST"))
        return clients.split("\n").filter((l) => /name=medusa-catalog-sync:/.test(l) && l.includes(`:${pid} `))
      } finally {
        redis.disconnect()
      }
    }
    // commands, queue and worker (the worker's blocking duplicate too)
    expect((await ourConnections()).length).toBeGreaterThanOrEqual(3)
    const code = await app.stop()
    app = null
    expect(code).toBe(0)

    const [row] = await sql(db.url, "select * from mcs_sync_run where id = $1", [run.id])
    expect(row.status).toBe("interrupted")
    expect(row.finished_at).not.toBeNull()
    expect(row.pages).toBeGreaterThanOrEqual(1)
    expect(row.pages).toBeLessThan(PRODUCTS / PAGE)
    // A page boundary: every page seen was written whole, nothing of a next page.
    expect(row.items_seen).toBe(row.pages * PAGE)
    const [{ n: mapped }] = await sql(db.url, "select count(*)::int as n from mcs_product_map where deleted_at is null")
    expect(mapped).toBe(row.items_seen - row.skipped)
    const [state] = await sql(db.url, "select * from mcs_sync_state")
    expect(state.cursor).toEqual(expect.any(String))
    expect(state.current_run_id).toBeNull()

    // No Redis connection of the stopped process is left.
    expect(await ourConnections()).toEqual([])

    // A new process continues from the cursor.
    sandbox.control.faults({ latency_ms: 0 })
    app = await startMedusaApp({ databaseUrl: db.url, label: "graceful-shutdown-2", env })
    const next = await app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(next.status).toBe(202)
    const done = await waitForRun(app, next.body.run.id)
    expect(done.status).toBe("succeeded")
    expect(done.items_seen).toBeLessThanOrEqual(PRODUCTS - row.items_seen + PAGE)
    const [{ n: total }] = await sql(db.url, "select count(*)::int as n from product where deleted_at is null")
    const [{ n: mappedAfter }] = await sql(db.url, "select count(*)::int as n from mcs_product_map where deleted_at is null")
    expect(mappedAfter).toBe(total)
    expect(total).toBe(PRODUCTS - row.skipped - done.skipped)
  })
})
