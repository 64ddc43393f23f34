// Runs through the queue over real HTTP: a cost basis change enqueues a full resync, a markup
// change a reprice; a revoked key fails the run with invalid_api_key, writes nothing, shows in
// /status and stops the schedule from calling the API until the settings change.
import { randomUUID } from "node:crypto"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { configure, sql, waitFor, waitForRun } from "./poll-and-query"

jest.setTimeout(300_000)

const SCHEDULE_MS = 3000

describe("runs, pricing resync and a revoked key", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: MedusaApp
  let sandbox: Sandbox
  const apiKey = `k-${randomUUID()}`

  beforeAll(async () => {
    sandbox = await startSandbox({ products: 120, seed: 5, apiKey, rpm: 6000, port: 0, controlPort: 0 })
    db = await createTestDatabase("queued-runs")
    app = await startMedusaApp({
      databaseUrl: db.url,
      label: "queued-runs",
      env: {
        CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`,
        CATALOG_SYNC_SCHEDULE_EVERY_MS: String(SCHEDULE_MS),
        CATALOG_SYNC_RETRY_BACKOFF_MS: "1500",
        CATALOG_SYNC_CLIENT_MAX_RETRIES: "1",
        CATALOG_BASE_URL: "",
        CATALOG_API_KEY: "",
      },
    })
  })

  afterAll(async () => {
    await app?.stop()
    await db?.drop()
    await sandbox?.close()
  })

  /** Queues a manual run of our own (waiting out a scheduled run that may be active). */
  async function freshManualRun(before: () => void): Promise<string> {
    for (;;) {
      const active = (await app.admin("/admin/catalog-sync/status")).body.running_run
      if (active) await waitForRun(app, active.id)
      before()
      const res = await app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
      expect(res.status).toBe(202)
      if (!res.body.already_running) return res.body.run.id
      await waitForRun(app, res.body.run.id)
    }
  }

  const stats = () => sandbox.control.stats() as { requests: number }
  const productCount = async () => Number((await sql(db.url, "select count(*)::int as n from product where deleted_at is null"))[0].n)

  it("a cost basis change in the settings enqueues a full resync; a markup change a reprice", async () => {
    // The first save of a shop that never synced starts its first sync (markup is a rule of the shop's now).
    const first = await configure(app, { base_url: sandbox.baseUrl, api_key: apiKey, markup_percent: "30" })
    expect(first.run).toMatchObject({ mode: "full", trigger: "settings", status: "queued" })
    const done = await waitForRun(app, first.run.id)
    expect(done.status).toBe("succeeded")
    expect(await productCount()).toBe(120)

    const same = await configure(app, { poll_interval_minutes: 6 })
    expect(same.pricing_changed).toBe(false)
    expect(same.run).toBeUndefined()

    // Costs depend on price_calculation: every product is read again.
    const changed = await configure(app, { price_calculation: "min" })
    expect(changed.pricing_changed).toBe(true)
    expect(changed.run).toMatchObject({ mode: "full", trigger: "settings" })
    expect((await waitForRun(app, changed.run.id)).status).toBe("succeeded")

    // A markup is the shop's rule: it moves every price, so the price guards ask first (nothing saved, no run)...
    const unconfirmed = await app.admin("/admin/catalog-sync/settings", { body: { markup_percent: "45" } })
    expect(unconfirmed.status).toBe(409)
    expect(unconfirmed.body).toMatchObject({ code: "price_guards", guards: [{ code: "moves_many_prices" }] })
    expect((await app.admin("/admin/catalog-sync/settings")).body.settings.pricing_rules.base_markup_percent).toBe("30")
    // ...and, confirmed, it is a reprice from the stored costs, no full pass.
    const marked = await configure(app, { markup_percent: "45", confirm_price_guards: true })
    expect(marked).toMatchObject({ pricing_changed: false, needs_full_pass: false, rules_changed: true })
    expect(marked.run).toMatchObject({ mode: "reprice", trigger: "rules_changed" })
    // The schedule's own runs may ask the sandbox meanwhile: the run's own count says it asked nothing.
    expect(await waitForRun(app, marked.run.id)).toMatchObject({ status: "succeeded", mode: "reprice", requests_used: 0 })
  })

  it("answers 202 with the run, and the running run to a second request", async () => {
    const [a, b] = await Promise.all([
      app.admin("/admin/catalog-sync/runs", { body: { mode: "full" } }),
      app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } }),
    ])
    expect(a.status).toBe(202)
    expect(b.status).toBe(202)
    if (a.body.run.id === b.body.run.id) {
      // One request queued the run (unless a scheduled run was already active); the other got it.
      expect(a.body.already_running || b.body.already_running).toBe(true)
    } else {
      // Two runs only when the first had ended before the other request queued its own: a
      // changes run with nothing to do (or a scheduled one, every 3 s here) takes milliseconds,
      // and a busy machine can hold a request longer. Never two at once.
      const rows = await sql(db.url, "select id, created_at, finished_at from mcs_sync_run where id = any($1) order by created_at", [
        [a.body.run.id, b.body.run.id],
      ])
      expect(rows).toHaveLength(2)
      const [earlier, later] = rows
      expect(earlier.finished_at).not.toBeNull()
      expect(new Date(earlier.finished_at).getTime()).toBeLessThanOrEqual(new Date(later.created_at).getTime())
    }
    await waitForRun(app, a.body.run.id)
    await waitForRun(app, b.body.run.id)
    const list = await app.admin("/admin/catalog-sync/runs?limit=2")
    expect(list.body.runs.length).toBe(2)
    expect(list.body.count).toBeGreaterThanOrEqual(3)
  })

  it("a transient failure is recorded with its reason and retried with backoff", async () => {
    const runId = await freshManualRun(() => sandbox.control.faults({ fail_rate: 1, kinds: ["503"] }))
    const failed = await waitForRun(app, runId)
    sandbox.control.faults({ fail_rate: 0 })
    expect(failed.status).toBe("failed")
    expect(failed.error_code).toEqual(expect.stringMatching(/service_unavailable|internal_error|server_error/))
    expect(failed.error_message).toEqual(expect.any(String))
    // The retry of this run (a scheduled run, every few seconds here, may fail in the same fault
    // window and have a retry of its own): the worker names both runs when it retries.
    const retryId = await waitFor(
      "the retry of the failed run",
      async () => app.logs().match(new RegExp(`retrying manual run ${runId} as (csrun_\\w+)`))?.[1],
      60_000
    )
    const retried = await waitForRun(app, retryId, ["succeeded", "failed"], 60_000)
    expect(retried).toMatchObject({ trigger: "retry", mode: "changes", status: "succeeded" })
    expect(new Date(retried.started_at).getTime() - new Date(failed.finished_at).getTime()).toBeGreaterThanOrEqual(1000)
  })

  it("a revoked key fails with invalid_api_key, changes nothing, and blocks the schedule until the settings change", async () => {
    const productsBefore = await sql(db.url, "select id, updated_at from product order by id")
    // Products change in the catalog, but the key is revoked before the shop can see them.
    sandbox.control.mutate({ count: 10, kinds: ["price"] })
    const newKey = (sandbox.control.revokeKey() as { api_key: string }).api_key

    const res = await app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(res.status).toBe(202)
    let run = await waitForRun(app, res.body.run.id)
    if (res.body.already_running && run.error_code !== "invalid_api_key") {
      // a scheduled run was in flight with the old key; the next one meets the revoked key
      run = await waitFor("a failed run", async () => {
        const list = await app.admin("/admin/catalog-sync/runs?limit=1")
        const latest = list.body.runs[0]
        return latest?.status === "failed" ? latest : null
      })
    }
    expect(run).toMatchObject({ status: "failed", error_code: "invalid_api_key" })
    expect(await sql(db.url, "select id, updated_at from product order by id")).toEqual(productsBefore)

    const status = await app.admin("/admin/catalog-sync/status")
    expect(status.body.state).toBe("key_invalid")
    expect(status.body.blocked).toMatchObject({ code: "invalid_api_key" })
    expect(status.body.next_run_at).toBeNull()
    expect(status.body.last_run).toMatchObject({ id: run.id, error_code: "invalid_api_key" })

    // Three scheduler intervals: no new run and not one request to the API.
    const runsBefore = (await app.admin("/admin/catalog-sync/runs?limit=1")).body.count
    const requestsBefore = stats().requests
    await new Promise((r) => setTimeout(r, SCHEDULE_MS * 3 + 500))
    expect((await app.admin("/admin/catalog-sync/runs?limit=1")).body.count).toBe(runsBefore)
    expect(stats().requests).toBe(requestsBefore)

    // New key: verified, saved, and the schedule runs again.
    await configure(app, { api_key: newKey })
    const resumed = await waitFor(
      "a scheduled run after the settings change",
      async () => {
        const list = await app.admin("/admin/catalog-sync/runs?limit=5")
        return list.body.runs.find((r: any) => r.trigger === "schedule" && r.status === "succeeded")
      },
      60_000
    )
    expect(resumed.status).toBe("succeeded")
    expect((await app.admin("/admin/catalog-sync/status")).body.state).not.toBe("key_invalid")
  })

  it("a plan without API access (403) shows as plan_required and blocks the schedule until the settings change", async () => {
    sandbox.control.plan({ plan: null })
    try {
      const runId = await freshManualRun(() => undefined)
      const run = await waitForRun(app, runId)
      expect(run).toMatchObject({ status: "failed", error_code: "plan_required" })
      const status = await app.admin("/admin/catalog-sync/status")
      expect(status.body).toMatchObject({ state: "plan_required", blocked: { code: "plan_required" }, next_run_at: null })
      const runsBefore = (await app.admin("/admin/catalog-sync/runs?limit=1")).body.count
      await new Promise((r) => setTimeout(r, SCHEDULE_MS * 2 + 500))
      expect((await app.admin("/admin/catalog-sync/runs?limit=1")).body.count).toBe(runsBefore)
    } finally {
      sandbox.control.plan({ plan: "Ultra" })
    }
    // The plan renewed: a save (any change) finds the catalog accepting it and lifts the block; the schedule runs again.
    await configure(app, { poll_interval_minutes: 9 })
    const after = await app.admin("/admin/catalog-sync/status")
    expect(after.body.state).not.toBe("plan_required")
    expect(after.body.next_run_at).toEqual(expect.any(String))
  })

  it("never prints a key", () => {
    expect(app.logs()).not.toContain(apiKey)
  })
})
