// The admin's change-log, history and progress routes against a real Medusa app and
// PostgreSQL: run and change rows are inserted as the sync will write them (the wiring
// phase records them), then read over HTTP. Also measures what a capped run's change log
// costs in the database.
import { randomUUID } from "node:crypto"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { sql } from "./poll-and-query"
import { MAX_ROWS_FULL_PASS } from "../../src/sync/change-log-policy"

jest.setTimeout(300_000)

describe("admin: change log, history and progress routes", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: MedusaApp

  beforeAll(async () => {
    db = await createTestDatabase("admin-change-log")
    app = await startMedusaApp({
      databaseUrl: db.url,
      label: "admin-change-log",
      env: { CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`, CATALOG_BASE_URL: "", CATALOG_API_KEY: "" },
    })
    const run = (
      id: string,
      at: string,
      trigger: string,
      counts: Partial<Record<"created" | "updated" | "removed", number>> = {},
      status = "succeeded",
      progress: object | null = null
    ) =>
      sql(
        db.url,
        `insert into mcs_sync_run (id, trigger, mode, status, started_at, finished_at, created_at, updated_at, created, updated, removed, progress)
         values ($1, $2, 'changes', $3, $4::timestamptz, $4::timestamptz + interval '5 seconds', $4::timestamptz, $4::timestamptz, $5, $6, $7, $8::jsonb)`,
        [id, trigger, status, at, counts.created ?? 0, counts.updated ?? 0, counts.removed ?? 0, progress ? JSON.stringify(progress) : null]
      )
    const base = Date.now() - 3 * 3_600_000
    for (let i = 0; i < 6; i++) await run(`csrun_quiet_${i}`, new Date(base + i * 600_000).toISOString(), "schedule")
    await run("csrun_changed", new Date(base + 7 * 600_000).toISOString(), "schedule", { updated: 2, removed: 1 }, "succeeded", {
      phase: "done",
      change_log_omitted: { updated: 5 },
    })
    await run("csrun_failed", new Date(base + 8 * 600_000).toISOString(), "schedule", {}, "failed")
    const change = (kind: string, catalogId: string, title: string, extra: Record<string, unknown> = {}) =>
      sql(
        db.url,
        `insert into mcs_sync_run_change (id, run_id, catalog_id, product_id, title, kind, price_changed, stock_changed, price_before, price_after)
         values ($1, 'csrun_changed', $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          `cschg_${randomUUID()}`,
          catalogId,
          `prod_${catalogId}`,
          title,
          kind,
          !!extra.price_changed,
          !!extra.stock_changed,
          extra.price_before ?? null,
          extra.price_after ?? null,
        ]
      )
    await change("updated", "1001", "Nike Air 50% off", { price_changed: true, price_before: "1287.50", price_after: "1300.10" })
    await change("updated", "1002", "Adidas Samba", { stock_changed: true })
    await change("removed", "1003", "Puma Suede")
  })

  afterAll(async () => {
    await app?.stop()
    await db?.drop()
  })

  it("lists a run's changes with exact before/after prices, filtered by kind and searched by title or catalog id", async () => {
    const all = await app.admin("/admin/catalog-sync/runs/csrun_changed/changes")
    expect(all.status).toBe(200)
    expect(all.body.count).toBe(3)
    expect(all.body.omitted).toEqual({ updated: 5 })
    const repriced = all.body.changes.find((c: { catalog_id: string }) => c.catalog_id === "1001")
    expect(repriced).toMatchObject({ kind: "updated", price_changed: true, price_before: "1287.50", price_after: "1300.10", product_id: "prod_1001" })

    const removed = await app.admin("/admin/catalog-sync/runs/csrun_changed/changes?kind=removed")
    expect(removed.body.changes.map((c: { catalog_id: string }) => c.catalog_id)).toEqual(["1003"])
    // "%" in the search is literal, and the title search ignores case.
    const byTitle = await app.admin(`/admin/catalog-sync/runs/csrun_changed/changes?q=${encodeURIComponent("air 50%")}`)
    expect(byTitle.body.changes.map((c: { catalog_id: string }) => c.catalog_id)).toEqual(["1001"])
    expect((await app.admin("/admin/catalog-sync/runs/csrun_changed/changes?q=50%25%25")).body.count).toBe(0)
    const byId = await app.admin("/admin/catalog-sync/runs/csrun_changed/changes?q=1002")
    expect(byId.body.changes.map((c: { catalog_id: string }) => c.catalog_id)).toEqual(["1002"])
  })

  it("answers 400 naming the field for a bad query, 404 for an unknown run", async () => {
    const bad = await app.admin("/admin/catalog-sync/runs/csrun_changed/changes?kind=exploded")
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ type: "invalid_data", field: "kind" })
    const unknown = await app.admin("/admin/catalog-sync/runs/csrun_changed/changes?sort=title")
    expect(unknown.status).toBe(400)
    expect(unknown.body.field).toBe("sort")
    expect((await app.admin("/admin/catalog-sync/runs/csrun_nope/changes")).status).toBe(404)
  })

  it("folds quiet polls into one row per day and filters by status and had_changes", async () => {
    const history = await app.admin("/admin/catalog-sync/history?tz=UTC")
    expect(history.status).toBe(200)
    const rows = history.body.rows as { type: string; count?: number; run?: { id: string } }[]
    expect(rows.filter((r) => r.type === "run").map((r) => r.run!.id)).toEqual(["csrun_failed", "csrun_changed"])
    const quiet = rows.filter((r) => r.type === "quiet")
    expect(quiet.reduce((n, r) => n + r.count!, 0)).toBe(6)
    expect(history.body.per_day).toHaveLength(30)
    expect(history.body.per_day.reduce((n: number, d: { changed: number }) => n + d.changed, 0)).toBe(3)

    const failed = await app.admin("/admin/catalog-sync/history?status=failed")
    expect(failed.body.rows.map((r: { run: { id: string } }) => r.run.id)).toEqual(["csrun_failed"])
    const changed = await app.admin("/admin/catalog-sync/history?had_changes=true")
    expect(changed.body.rows.map((r: { run: { id: string } }) => r.run.id)).toEqual(["csrun_changed"])
    const badZone = await app.admin("/admin/catalog-sync/history?tz=Mars%2FOlympus")
    expect(badZone.status).toBe(400)
    expect(badZone.body.field).toBe("tz")
  })

  it("the light progress route answers without calling the catalog", async () => {
    const res = await app.admin("/admin/catalog-sync/progress")
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ running_run: null, expected_total: null })
    expect(res.body.last_run.id).toBe("csrun_failed")
  })

  it("measures a capped run's change log: 2,000 rows", async () => {
    await sql(
      db.url,
      `insert into mcs_sync_run_change (id, run_id, catalog_id, product_id, title, kind, stock_changed, price_changed, price_before, price_after)
       select 'cschg_bulk_' || g, 'csrun_bulk', (100000 + g)::text, 'prod_01JBULK' || g, 'Product title number ' || g, 'updated', true, g % 10 = 0,
              case when g % 10 = 0 then '1287.50' end, case when g % 10 = 0 then '1300.10' end
       from generate_series(1, $1::int) g`,
      [MAX_ROWS_FULL_PASS]
    )
    await sql(db.url, "analyze mcs_sync_run_change")
    const [{ bytes }] = await sql(db.url, "select pg_total_relation_size('mcs_sync_run_change')::bigint as bytes")
    console.log(
      `change log: ${MAX_ROWS_FULL_PASS} rows (a capped full pass) take ${Math.round(Number(bytes) / 1024)} KiB with indexes (${Math.round(Number(bytes) / MAX_ROWS_FULL_PASS)} B a row)`
    )
    expect(Number(bytes)).toBeLessThan(5 * 1024 * 1024)
    const page = await app.admin("/admin/catalog-sync/runs/csrun_bulk/changes?limit=200&offset=1800")
    expect(page.status).toBe(404) // no run row: the route checks the run exists first
  })
})
