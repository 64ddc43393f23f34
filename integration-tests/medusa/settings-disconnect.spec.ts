// Test connection for an expired plan, and Disconnect, over real HTTP: a real Medusa app (demo/,
// plugin built), PostgreSQL, Redis and the sandbox catalog API, the poll schedule every 3 s so a
// live schedule would show within seconds.
// - An expired plan: /v1/me answers 200, but Test connection says plan_expired with the date,
//   Save refuses the key the same way, and a run fails with 403 plan_required; saving another
//   setting while it is still expired keeps the sync blocked.
// - Disconnect: the key is gone from the row (SQL), the status is not_configured without a next
//   run, and no request reaches the sandbox afterwards (its request counter stays put).
import { randomUUID } from "node:crypto"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { configure, sql, waitFor, waitForRun } from "./poll-and-query"

jest.setTimeout(420_000)

const API_KEY = "disc-" + randomUUID().replace(/-/g, "") + "Wx42"
const EXPIRED_AT = "2020-01-01T00:00:00.000Z"

describe("settings: expired plan and disconnect", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: MedusaApp
  let sandbox: Sandbox
  const requests = () => (sandbox.control.stats() as { requests: number }).requests
  const status = async () => (await app.admin("/admin/catalog-sync/status")).body

  beforeAll(async () => {
    sandbox = await startSandbox({ products: 15, seed: 11, apiKey: API_KEY, rpm: 6000, port: 0, controlPort: 0 })
    db = await createTestDatabase("settings-disconnect")
    app = await startMedusaApp({
      databaseUrl: db.url,
      label: "settings-disconnect",
      env: {
        CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`,
        CATALOG_SYNC_SCHEDULE_EVERY_MS: "3000",
        CATALOG_BASE_URL: "",
        CATALOG_API_KEY: "",
      },
    })
    await configure(app, { base_url: sandbox.baseUrl, api_key: API_KEY, markup_percent: "30" })
    // The first sync (queued by the save) ends before the tests change the plan.
    await waitFor("the first sync", async () => (await status()).last_run?.status === "succeeded", 180_000)
  })

  afterAll(async () => {
    await app?.stop()
    await db?.drop()
    await sandbox?.close()
  })

  it("an expired plan: Test connection fails with plan_expired and its date, Save refuses the key alike, runs get 403", async () => {
    sandbox.control.plan({ plan: "Ultra", expires_at: EXPIRED_AT })
    const test = await app.admin("/admin/catalog-sync/test-connection", { body: {} })
    expect(test.status).toBe(200)
    expect(test.body).toEqual({
      ok: false,
      error: {
        code: "plan_expired",
        message: "The catalog account's plan expired on 1 Jan 2020. Syncs are refused until it is renewed.",
        request_id: null,
        expired_at: EXPIRED_AT,
      },
    })
    // The message never repeats the code in parentheses.
    expect(test.body.error.message).not.toContain("(plan_expired")

    const before = await app.admin("/admin/catalog-sync/settings")
    const save = await app.admin("/admin/catalog-sync/settings", { body: { api_key: API_KEY } })
    expect(save.status).toBe(400)
    expect(save.body).toMatchObject({ type: "invalid_data", field: "api_key", code: "plan_expired", request_id: null, expired_at: EXPIRED_AT })
    expect(save.body.errors[0]).toEqual({ field: "api_key", message: test.body.error.message, code: "plan_expired", request_id: null, expired_at: EXPIRED_AT })
    expect((await app.admin("/admin/catalog-sync/settings")).body.settings).toEqual(before.body.settings)

    // What a run does with the same account: 403 plan_required, and the schedule is paused.
    await app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    const blocked = await waitFor("a run refused with 403", async () => {
      const s = await status()
      return s.state === "plan_required" && s.last_run?.error_code === "plan_required" ? s : null
    })
    expect(blocked.blocked).toMatchObject({ code: "plan_required" })

    // Another setting saved while the plan is still expired: the block stays, no run is queued or
    // promised (it read "Failed · next run in 5 min" and the next run was refused again).
    const runsBefore = (await app.admin("/admin/catalog-sync/runs?limit=1")).body.count
    const other = await app.admin("/admin/catalog-sync/settings", { body: { alert_email: "owner@example.com" } })
    expect(other.status).toBe(200)
    expect(other.body.run).toBeUndefined()
    const still = await status()
    expect(still).toMatchObject({ state: "plan_required", blocked: { code: "plan_required" }, next_run_at: null })
    await new Promise((r) => setTimeout(r, 7_000))
    expect((await status()).state).toBe("plan_required")
    expect((await app.admin("/admin/catalog-sync/runs?limit=1")).body.count).toBe(runsBefore)

    // New pricing rules saved while blocked: a reprice asks the catalog nothing, so it is queued and
    // runs (it was dropped with the other runs, and the shop kept the old prices after the renewal).
    const repriced = await app.admin("/admin/catalog-sync/settings", {
      body: { pricing_rules: { base_markup_percent: "35", rounding: { mode: "none" }, overrides: [] }, confirm_price_guards: true },
    })
    expect(repriced.status).toBe(200)
    expect(repriced.body).toMatchObject({ rules_changed: true, run: { mode: "reprice", trigger: "rules_changed" } })
    const reprice = await waitFor("the reprice run ends", async () => {
      const r = (await app.admin(`/admin/catalog-sync/runs/${repriced.body.run.id}`)).body.run
      return r.status === "queued" || r.status === "running" ? null : r
    })
    expect(reprice.status).toBe("succeeded")
    expect(await status()).toMatchObject({ state: "plan_required", blocked: { code: "plan_required" } })

    // Renewed: Test connection is ok again, and a save lifts the block.
    sandbox.control.plan({ plan: "Ultra", expires_at: null })
    expect((await app.admin("/admin/catalog-sync/test-connection", { body: {} })).body.ok).toBe(true)
    await configure(app, { api_key: API_KEY })
    expect((await status()).state).not.toBe("plan_required")
  })

  it("Disconnect removes the saved key, stops the schedule, and no request reaches the catalog afterwards", async () => {
    // The schedule is live: scheduled runs reach the catalog.
    const live = requests()
    await waitFor("a scheduled run", async () => requests() > live, 60_000)

    // A run in progress holds the key: Disconnect waits for it (409), then goes through.
    let conflicts = 0
    const done = await waitFor(
      "disconnect",
      async () => {
        const res = await app.admin("/admin/catalog-sync/settings/api-key", { method: "DELETE" })
        if (res.status === 409) {
          conflicts++
          expect(res.body).toMatchObject({ type: "conflict", code: "sync_running", running_run_id: expect.any(String) })
          return null
        }
        expect(res.status).toBe(200)
        return res.body
      },
      60_000,
      100
    )
    expect(done.options_key_applies).toBe(false)
    expect(done.settings).toMatchObject({ api_key: null, api_key_set: false, base_url: sandbox.baseUrl })
    expect(JSON.stringify(done)).not.toContain("Wx42")

    const [row] = await sql(db.url, "select api_key_encrypted, api_key_last4, api_key_hash, base_url from mcs_sync_settings")
    expect(row).toEqual({ api_key_encrypted: null, api_key_last4: null, api_key_hash: null, base_url: sandbox.baseUrl })
    const get = await app.admin("/admin/catalog-sync/settings")
    expect(get.body.settings).toMatchObject({ api_key: null, api_key_set: false })

    const after = await status()
    expect(after).toMatchObject({ state: "not_configured", next_run_at: null, account: null, account_error: null })
    const runsBefore = (await app.admin("/admin/catalog-sync/runs?limit=100&offset=0")).body.count

    // Several schedule periods later: not one request, no new run that reached the catalog.
    const counted = requests()
    await new Promise((resolve) => setTimeout(resolve, 10_000))
    const test = await app.admin("/admin/catalog-sync/test-connection", { body: {} })
    expect(test.status).toBe(400)
    expect(test.body.field).toBe("api_key")
    const manual = await app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(manual.status).toBe(400)
    expect(manual.body.field).toBe("api_key")
    expect(requests()).toBe(counted)
    const runsAfter = await app.admin("/admin/catalog-sync/runs?limit=100&offset=0")
    expect(runsAfter.body.count).toBe(runsBefore)
    console.log(`disconnect: ${conflicts} answer(s) 409 while a run held the key; ${counted} sandbox requests before, ${requests()} 10 s after`)

    // Deleting again is harmless; connecting again works.
    expect((await app.admin("/admin/catalog-sync/settings/api-key", { method: "DELETE" })).status).toBe(200)
    const again = await configure(app, { api_key: API_KEY })
    expect(again.settings).toMatchObject({ api_key: "••••Wx42", api_key_set: true })
    // Connecting again starts a changes run at once (what the catalog changed meanwhile), not at the next poll.
    expect(again.run).toMatchObject({ mode: "changes", trigger: "settings" })
    expect((await waitForRun(app, again.run.id, undefined, 60_000)).status).toBe("succeeded")
  })
})
