// PostgreSQL restarted under a running sync, healed without a human (issue 42): between pages,
// and during a page write. The app's database is on a PostgreSQL server of the test's own
// (harness/postgres-instance.ts: a copy of the migrated template, on a free port), never the
// shared one; its Redis is a redis-server of the test's own. Each restart must end with the run
// recorded `interrupted` in class `database` with the true reason, a later run that resumed its
// pass and succeeded, nothing duplicated, and the shop equal to the catalog (SQL on Medusa's
// tables against the sandbox's cards) while the catalog keeps changing.
// MCS_FAULT_PG_DOWN_SECONDS: how long the server stays down (default 3 s; not MCS_FAULT_SECONDS,
// whose 40 s catalog outages would be another case here); MCS_FAULT_PRODUCTS: the catalog's size
// (default 300: two pages of a full pass).
import { randomUUID } from "node:crypto"
import { Client } from "pg"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startPostgresInstance, type PostgresInstance } from "../harness/postgres-instance"
import { startRedisInstance, type RedisInstance } from "../harness/redis-instance"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { configure, sql, waitFor, waitForRun } from "./poll-and-query"
import { compareShop, readCatalog, readShop } from "./sync-helpers"

jest.setTimeout(1_200_000)

const PRODUCTS = Number(process.env.MCS_FAULT_PRODUCTS || 300)
const DOWN_MS = Number(process.env.MCS_FAULT_PG_DOWN_SECONDS || 3) * 1000
/** The test's poll interval: every fault must be over within one of it after it ends. */
const POLL_MS = 20_000
/** The sandbox's delay on every answer while the run must be between pages. */
const SLOW_PAGE_MS = 8_000
/** What a lost database connection may be recorded as: each names the database as the cause. */
const DATABASE_REASONS =
  /^(57P0[1-3]|08[0-9A-Z]{3}|lost_run_lock|ECONNREFUSED|ECONNRESET|EPIPE|connection_lost|KnexTimeoutError|database_restarted|database_unreachable)$/
/** A statement of a page's bulk write on Medusa's tables (not the product map, not the run's own row). */
const MEDUSA_WRITE =
  /^\s*(insert\s+into|update|delete\s+from)\s+"?(public"?\."?)?"?(product|product_variant|product_option|product_option_value|image|price|price_set|inventory_item|inventory_level|product_variant_price_set|product_variant_inventory_item)"?\s/i

describe("PostgreSQL restarts heal by themselves", () => {
  let pg: PostgresInstance
  let redis: RedisInstance
  let sb: Sandbox
  let app: MedusaApp
  let dbUrl: string
  const measured: string[] = []

  beforeAll(async () => {
    pg = await startPostgresInstance()
    redis = await startRedisInstance()
    // The migrated template, copied from the shared server into the test's own (a clone there first:
    // a session on the template itself would hold up other workers' clones of it).
    const source = await createTestDatabase("pgfaults_src")
    try {
      await pg.copyFrom(source.name, "shop")
    } finally {
      await source.drop()
    }
    dbUrl = pg.url("shop")
    sb = await startSandbox({ products: PRODUCTS, seed: 43, apiKey: `k-${randomUUID()}`, rpm: 100_000, concurrency: 3, port: 0, controlPort: 0 })
    app = await startMedusaApp({
      databaseUrl: dbUrl,
      label: "faults-postgres",
      env: {
        REDIS_URL: redis.url,
        CATALOG_SYNC_REDIS_PREFIX: `mcs-pgfaults-${randomUUID()}`,
        CATALOG_SYNC_SCHEDULE_EVERY_MS: String(POLL_MS),
        CATALOG_SYNC_RETRY_BACKOFF_MS: "2000",
        CATALOG_BASE_URL: "",
        CATALOG_API_KEY: "",
      },
    })
    const saved = await configure(app, { base_url: sb.baseUrl, api_key: sb.apiKey, markup_percent: "30", price_calculation: "max" })
    const first = await waitForRun(app, saved.run.id, undefined, 600_000)
    expect(first.status).toBe("succeeded")
  })

  afterAll(async () => {
    console.log(
      `postgres faults measured (load ${require("node:os")
        .loadavg()
        .map((l: number) => l.toFixed(1))
        .join(" ")}):\n  ${measured.join("\n  ")}`
    )
    await app?.stop()
    await sb?.close()
    await redis?.stop()
    await pg?.stop()
  })

  /** Starts a run through the admin API; answers its id. */
  async function startRun(mode: "full" | "changes"): Promise<string> {
    const started = await app.admin("/admin/catalog-sync/runs", { body: { mode } })
    expect(started.status).toBe(202)
    return started.body.run.id
  }

  /**
   * Waits for the run to end interrupted by the database, then for a retry that resumed its pass
   * and succeeded with the shop equal to the catalog and nothing duplicated; answers when it was equal.
   */
  async function expectResumedAndEqual(runId: string, since: Date): Promise<{ equalAt: number; interrupted: any }> {
    const interrupted = await waitFor(
      `run ${runId} recorded as ended`,
      async () => {
        const [r] = await sql(dbUrl, "select * from mcs_sync_run where id = $1 and status not in ('queued', 'running')", [runId])
        return r
      },
      POLL_MS + 120_000,
      500
    )
    expect([interrupted.status, interrupted.error_class]).toEqual(["interrupted", "database"])
    expect(interrupted.error_code).toMatch(DATABASE_REASONS)
    expect(interrupted.error_message).toMatch(/database/i)
    const equalAt = await waitFor(
      "a resumed run that succeeded, and the shop equal to the catalog",
      async () => {
        const [live] = await sql(dbUrl, "select id from mcs_sync_run where status in ('queued', 'running')")
        if (live) return null
        const [ok] = await sql(dbUrl, "select finished_at from mcs_sync_run where status = 'succeeded' and created_at > $1 order by finished_at desc limit 1", [
          interrupted.created_at,
        ])
        if (!ok) return null
        const problems = compareShop(await readCatalog(sb.baseUrl, sb.apiKey), await readShop(dbUrl))
        return problems.length ? null : Date.now()
      },
      POLL_MS + 180_000,
      1000
    )
    // The next run (the recovery loop's retry, or the poll if it came first) succeeded; a full pass
    // is continued from its cursor: the same pass, without reading the catalog again from the start.
    const [next] = await sql(dbUrl, "select trigger, status, progress, items_seen from mcs_sync_run where created_at > $1 order by created_at limit 1", [
      interrupted.created_at,
    ])
    expect(["retry", "schedule"]).toContain(next.trigger)
    expect(next.status).toBe("succeeded")
    if (interrupted.mode === "full") {
      expect(next.progress.pass_id).toBe(interrupted.progress.pass_id)
      expect(next.items_seen).toBeLessThan(PRODUCTS)
    }
    // Nothing failed on the way (an unclassified database error used to end the run failed internal_error).
    expect(await sql(dbUrl, "select id, error_code, error_class from mcs_sync_run where status = 'failed' and created_at > $1", [since])).toEqual([])
    // Nothing written twice: a page written again after the restart is idempotent.
    const shop = await readShop(dbUrl)
    expect(compareShop(await readCatalog(sb.baseUrl, sb.apiKey), shop)).toEqual([])
    expect(await sql(dbUrl, "select external_id, count(*)::int as n from product where deleted_at is null group by external_id having count(*) > 1")).toEqual(
      []
    )
    expect(await sql(dbUrl, "select sku, count(*)::int as n from product_variant where deleted_at is null group by sku having count(*) > 1")).toEqual([])
    expect(await sql(dbUrl, "select sku, count(*)::int as n from inventory_item where deleted_at is null group by sku having count(*) > 1")).toEqual([])
    const map = await sql(dbUrl, "select catalog_id, product_id from mcs_product_map where deleted_at is null and status = 'active'")
    expect(map.map((m) => m.catalog_id).sort()).toEqual([...shop.keys()].sort())
    for (const m of map) expect(m.product_id).toBe(shop.get(m.catalog_id)!.id)
    return { equalAt, interrupted }
  }

  it("PostgreSQL restarted between pages of a full pass: the run ends interrupted (database) and resumes from its cursor", async () => {
    sb.control.mutate({ count: 20 })
    sb.control.faults({ latency_ms: SLOW_PAGE_MS })
    const since = new Date()
    const runId = await startRun("full")
    // The first page is written and the run waits for the next one (every answer is slow).
    await waitFor(
      "the first page written",
      async () => (await sql(dbUrl, "select 1 from mcs_sync_run where id = $1 and status = 'running' and pages >= 1", [runId])).length > 0,
      300_000,
      200
    )
    await pg.restart(DOWN_MS)
    const back = Date.now()
    sb.control.faults({ latency_ms: 0 })
    sb.control.mutate({ count: 15 })
    const { equalAt } = await expectResumedAndEqual(runId, since)
    measured.push(`restarted between pages (down ${DOWN_MS / 1000} s): shop equal ${((equalAt - back) / 1000).toFixed(1)} s after PostgreSQL answered`)
  })

  it("PostgreSQL restarted during a page's bulk write: the page fails whole (no product blamed, no fallback), the run ends interrupted (database), resumes, and the shop equals the catalog", async () => {
    // Most products change, so the changes run's pages carry real writes (the bulk fast paths).
    sb.control.mutate({ count: Math.ceil(PRODUCTS * 0.8) })
    const since = new Date()
    const logsBefore = app.logs().length
    const runId = await startRun("changes")
    // A superuser session on the test's server watches for a statement of the page's bulk write on
    // Medusa's tables; it terminates that backend at once (what a fast shutdown does to every
    // session), then the server restarts. Terminating first makes sure the write itself is hit.
    const admin = new Client({ connectionString: pg.url("postgres") })
    await admin.connect()
    let seen: string
    try {
      seen = await waitFor(
        "a page write in progress",
        async () => {
          const { rows } = await admin.query(
            "select pid, query from pg_stat_activity where datname = 'shop' and state = 'active' and backend_type = 'client backend'"
          )
          const writer = rows.find((r) => MEDUSA_WRITE.test(r.query))
          if (!writer) return null
          await admin.query("select pg_terminate_backend($1)", [writer.pid])
          return writer.query as string
        },
        300_000,
        10
      )
    } finally {
      await admin.end()
    }
    await pg.restart(DOWN_MS)
    const back = Date.now()
    sb.control.mutate({ count: 15 })
    const { equalAt, interrupted } = await expectResumedAndEqual(runId, since)
    // The lost connection is the reason: the bulk write rethrew it. Had it fallen back to Medusa's
    // workflows, the fence there would have found the lock gone (lost_run_lock), or the products
    // would have been tried one by one and blamed.
    expect(interrupted.error_code).not.toBe("lost_run_lock")
    expect(interrupted.error_message).not.toMatch(/run lock/)
    const written = app.logs().slice(logsBefore)
    expect(written).not.toMatch(/go through the update workflow|were written one by one/)
    // No product of the page (nor any other) is reported as a failure of its own.
    const runs = await sql(dbUrl, "select id, rejected_items from mcs_sync_run where created_at >= $1", [since])
    for (const r of runs) expect([r.id, r.rejected_items ?? []]).toEqual([r.id, []])
    expect(
      await sql(dbUrl, "select run_id, catalog_id, reason from mcs_sync_run_change where kind = 'rejected' and run_id = any($1)", [runs.map((r) => r.id)])
    ).toEqual([])
    measured.push(
      `restarted during a page's bulk write (${String(seen).slice(0, 40).replace(/\s+/g, " ")}…, recorded ${interrupted.error_code}, down ${DOWN_MS / 1000} s): shop equal ${((equalAt - back) / 1000).toFixed(1)} s after PostgreSQL answered`
    )
  })
})
