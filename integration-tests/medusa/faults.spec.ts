// Faults around the app, healed without a human (issue 42): a Redis of the test's own restarted
// empty, and the catalog behind a TCP forwarder the test controls refusing, then resetting
// connections, then stalling them, each during a running sync while the catalog changes. Each
// ends with the shop equal to the catalog (SQL on Medusa's tables against the sandbox's cards),
// the schedule present, and the true reasons on the runs.
//
// The app's Redis is the test's own redis-server on a free port (never the shared one); its
// database is a per-test copy of the template on the shared PostgreSQL, which this suite never
// stops (its restarts are in faults-postgres.spec.ts). MCS_FAULT_SECONDS makes each catalog
// outage longer (default 40 s: past the client's own retries, so the run itself fails and is
// retried by class).
import { randomUUID } from "node:crypto"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startRedisInstance, type RedisInstance } from "../harness/redis-instance"
import { startTcpForwarder, type TcpForwarder } from "../harness/tcp-forwarder"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { configure, sql, waitFor, waitForRun } from "./poll-and-query"
import { compareShop, readCatalog, readShop } from "./sync-helpers"

jest.setTimeout(1_200_000)

const PRODUCTS = Number(process.env.MCS_FAULT_PRODUCTS || 300)
const FAULT_MS = Number(process.env.MCS_FAULT_SECONDS || 40) * 1000
/** How long the catalog resets connections after refusing them. */
const RESET_MS = 15_000
/** The test's poll interval: every fault must be over within one of it after it ends. */
const POLL_MS = 20_000

describe("faults heal by themselves", () => {
  let redis: RedisInstance
  let sb: Sandbox
  let forwarder: TcpForwarder
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: MedusaApp
  const measured: string[] = []

  beforeAll(async () => {
    redis = await startRedisInstance()
    sb = await startSandbox({ products: PRODUCTS, seed: 42, apiKey: `k-${randomUUID()}`, rpm: 100_000, concurrency: 3, port: 0, controlPort: 0 })
    forwarder = await startTcpForwarder({ host: "127.0.0.1", port: Number(new URL(sb.baseUrl).port) })
    db = await createTestDatabase("faults")
    app = await startMedusaApp({
      databaseUrl: db.url,
      label: "faults",
      env: {
        REDIS_URL: redis.url,
        CATALOG_SYNC_REDIS_PREFIX: `mcs-faults-${randomUUID()}`,
        CATALOG_SYNC_SCHEDULE_EVERY_MS: String(POLL_MS),
        CATALOG_SYNC_RETRY_BACKOFF_MS: "2000",
        CATALOG_BASE_URL: "",
        CATALOG_API_KEY: "",
      },
    })
    const saved = await configure(app, { base_url: forwarder.url, api_key: sb.apiKey, markup_percent: "30", price_calculation: "max" })
    const first = await waitForRun(app, saved.run.id, undefined, 600_000)
    expect(first.status).toBe("succeeded")
  })

  afterAll(async () => {
    console.log(
      `faults measured (load ${require("node:os")
        .loadavg()
        .map((l: number) => l.toFixed(1))
        .join(" ")}):\n  ${measured.join("\n  ")}`
    )
    await app?.stop()
    await forwarder?.close()
    await sb?.close()
    await db?.drop()
    await redis?.stop()
  })

  const latestRuns = () =>
    sql(db.url, "select id, status, trigger, error_code, error_class, created_at, finished_at from mcs_sync_run order by created_at desc limit 40")

  /** Waits until a run created after `since` succeeded and the shop equals the catalog; answers when. */
  async function healed(since: Date, timeoutMs: number): Promise<number> {
    return waitFor(
      "a run that succeeded after the fault, and the shop equal to the catalog",
      async () => {
        const [ok] = await sql(
          db.url,
          "select finished_at from mcs_sync_run where status = 'succeeded' and created_at > $1 order by finished_at desc limit 1",
          [since]
        )
        if (!ok) return null
        const [live] = await sql(db.url, "select id from mcs_sync_run where status in ('queued', 'running')")
        if (live) return null
        const problems = compareShop(await readCatalog(sb.baseUrl, sb.apiKey), await readShop(db.url))
        return problems.length ? null : new Date(ok.finished_at).getTime()
      },
      timeoutMs,
      1000
    )
  }

  async function schedulePresent(): Promise<boolean> {
    const status = await app.admin("/admin/catalog-sync/status")
    return !!status.body?.next_run_at
  }

  it("Redis restarted empty during a running sync: the schedule is back within one poll interval, the shop equals the catalog", async () => {
    sb.control.mutate({ count: 30 })
    const started = await app.admin("/admin/catalog-sync/runs", { body: { mode: "full" } })
    expect(started.status).toBe(202)
    const since = new Date()
    await redis.restartEmpty(3_000)
    const back = Date.now()
    sb.control.mutate({ count: 20 })
    await waitFor("the poll schedule re-created", schedulePresent, POLL_MS, 500)
    measured.push(`redis restarted empty: schedule back ${((Date.now() - back) / 1000).toFixed(1)} s after Redis answered`)
    const done = await healed(since, 6 * POLL_MS + 120_000)
    measured.push(`redis restarted empty: shop equal to the catalog ${((done - back) / 1000).toFixed(1)} s after Redis answered`)
    expect(await schedulePresent()).toBe(true)
    // A scheduled run fired after the restart (the schedule works, not only exists).
    await waitFor(
      "a scheduled run after the restart",
      async () => (await sql(db.url, "select 1 from mcs_sync_run where trigger = 'schedule' and created_at > $1", [new Date(back)])).length > 0,
      2 * POLL_MS + 60_000,
      1000
    )
  })

  it("the catalog refuses, then resets connections during a sync: runs fail network, are retried, and the shop heals within one poll interval", async () => {
    sb.control.mutate({ count: 25 })
    const since = new Date()
    await forwarder.setMode("refuse")
    const started = await app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(started.status).toBe(202)
    // Refused for longer than the client's own retries (about 30 s at most): the run itself fails ECONNREFUSED.
    await new Promise((r) => setTimeout(r, FAULT_MS))
    sb.control.mutate({ count: 10 })
    await forwarder.setMode("reset")
    await new Promise((r) => setTimeout(r, RESET_MS))
    await forwarder.setMode("pass")
    const back = Date.now()
    const done = await healed(since, POLL_MS + 180_000)
    measured.push(
      `catalog refused ${FAULT_MS / 1000} s then reset ${RESET_MS / 1000} s: shop equal ${((done - back) / 1000).toFixed(1)} s after the catalog answered`
    )
    const runs = await latestRuns()
    const failed = runs.filter((r: any) => new Date(r.created_at) > since && r.status === "failed")
    // The true reasons: the transport's codes, in the network class; never a permanent failure.
    expect(failed.length).toBeGreaterThan(0)
    for (const r of failed)
      expect([r.error_code, r.error_class]).toEqual([expect.stringMatching(/^(ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET|network_error)$/), "network"])
    const refused = failed.filter((r: any) => r.error_code === "ECONNREFUSED")
    expect(refused.length).toBeGreaterThan(0)
    // Retried by the worker (a "retry" run after it), not left to the next poll.
    const firstRefused = Math.min(...refused.map((r: any) => new Date(r.finished_at).getTime()))
    expect(runs.some((r: any) => r.trigger === "retry" && new Date(r.created_at).getTime() >= firstRefused)).toBe(true)
    expect(await schedulePresent()).toBe(true)
  })

  it("the catalog stalls connections during a sync: the run heals once it answers", async () => {
    sb.control.mutate({ count: 15 })
    const since = new Date()
    await forwarder.setMode("stall")
    const started = await app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(started.status).toBe(202)
    await new Promise((r) => setTimeout(r, Math.min(FAULT_MS, 20_000)))
    await forwarder.setMode("pass")
    const back = Date.now()
    const done = await healed(since, POLL_MS + 180_000)
    measured.push(`catalog stalled ${Math.min(FAULT_MS, 20_000) / 1000} s: shop equal ${((done - back) / 1000).toFixed(1)} s after the catalog answered`)
    const runs = await latestRuns()
    for (const r of runs.filter((x: any) => new Date(x.created_at) > since && x.status === "failed")) expect(["network", "timeout"]).toContain(r.error_class)
    expect(await schedulePresent()).toBe(true)
  })
})
