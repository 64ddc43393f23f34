// Settings over real HTTP: a real Medusa app (demo/, plugin built), PostgreSQL, Redis and the
// sandbox catalog API. Bad values are refused naming the field and change nothing; the key is
// verified with /v1/me, stored encrypted, returned masked, and never printed.
import { randomUUID } from "node:crypto"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { Client } from "pg"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { waitFor } from "./poll-and-query"

jest.setTimeout(240_000)

const API_KEY = "live-" + randomUUID().replace(/-/g, "") + "Zq81"

describe("admin settings", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: MedusaApp
  let sandbox: Sandbox

  beforeAll(async () => {
    sandbox = await startSandbox({ products: 20, seed: 3, apiKey: API_KEY, rpm: 6000, port: 0, controlPort: 0 })
    db = await createTestDatabase("admin-settings")
    app = await startMedusaApp({
      databaseUrl: db.url,
      label: "admin-settings",
      env: { CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`, CATALOG_BASE_URL: "", CATALOG_API_KEY: "" },
    })
  })

  afterAll(async () => {
    await app?.stop()
    await db?.drop()
    await sandbox?.close()
  })

  it("starts unconfigured", async () => {
    const res = await app.admin("/admin/catalog-sync/settings")
    expect(res.status).toBe(200)
    expect(res.body.settings).toMatchObject({ api_key: null, api_key_set: false, poll_interval_minutes: 10, removal_mode: "delete" })
    const status = await app.admin("/admin/catalog-sync/status")
    expect(status.status).toBe(200)
    expect(status.body).toMatchObject({ state: "not_configured", running_run: null, last_run: null, products_synced: 0 })
  })

  it("requires an admin", async () => {
    const res = await fetch(`${app.url}/admin/catalog-sync/settings`)
    expect(res.status).toBe(401)
  })

  it("refuses a wrong key with a 400 on api_key and saves nothing", async () => {
    const before = await app.admin("/admin/catalog-sync/settings")
    const res = await app.admin("/admin/catalog-sync/settings", {
      body: { base_url: sandbox.baseUrl, api_key: "wrong-key-0000", markup_percent: 30 },
    })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ type: "invalid_data", field: "api_key" })
    const after = await app.admin("/admin/catalog-sync/settings")
    expect(after.body.settings).toEqual(before.body.settings)
  })

  it("verifies a new key against /v1/me, saves it encrypted and returns it masked", async () => {
    const res = await app.admin("/admin/catalog-sync/settings", {
      body: { base_url: sandbox.baseUrl, api_key: API_KEY, markup_percent: "30", poll_interval_minutes: 7 },
    })
    expect(res.status).toBe(200)
    expect(res.body.settings).toMatchObject({
      base_url: sandbox.baseUrl,
      api_key: "••••Zq81",
      api_key_set: true,
      // A markup saved as such is the shop's rule: the rules' base markup, the one place for it.
      pricing_rules: { base_markup_percent: "30", crossed_out: { type: "none" } },
      pricing_rules_saved: true,
      poll_interval_minutes: 7,
    })
    expect(res.body.settings).not.toHaveProperty("markup_percent")
    expect(JSON.stringify(res.body)).not.toContain(API_KEY)
    const get = await app.admin("/admin/catalog-sync/settings")
    expect(get.body.settings.api_key).toBe("••••Zq81")
    expect(JSON.stringify(get.body)).not.toContain(API_KEY)

    // At rest: AES-GCM blob, no plaintext anywhere in the row.
    const pg = new Client({ connectionString: db.url })
    await pg.connect()
    try {
      const { rows } = await pg.query("select * from mcs_sync_settings")
      expect(rows).toHaveLength(1)
      expect(rows[0].api_key_encrypted).toMatch(/^v1:[^:]+:[^:]+:[^:]+$/)
      expect(JSON.stringify(rows[0])).not.toContain(API_KEY)
      // Stored as the rules' base markup; no API markup parameter is kept to send.
      expect(rows[0]).toMatchObject({ markup_percent: null, discount_percent: null, pricing_rules: { base_markup_percent: "30" } })
    } finally {
      await pg.end()
    }
  })

  it.each([
    [{ markup_percent: 1001 }, "markup_percent"],
    [{ discount_percent: 100 }, "discount_percent"],
    [{ discount_percent: 10, old_price_markup_percent: 20 }, "discount_percent"],
    [{ poll_interval_minutes: 4 }, "poll_interval_minutes"],
    [{ poll_interval_minutes: 16 }, "poll_interval_minutes"],
    [{ removal_mode: "archive" }, "removal_mode"],
    [{ primary_language: "en" }, "primary_language"],
    [{ base_url: "ftp://example.com" }, "base_url"],
    [{ enabled: "maybe" }, "enabled"],
    [{ stock_location_id: "sloc_does_not_exist" }, "stock_location_id"],
    [{ sales_channel_id: "sc_does_not_exist" }, "sales_channel_id"],
  ])("refuses %j with a 400 naming %s and keeps the old settings", async (body, field) => {
    const before = await app.admin("/admin/catalog-sync/settings")
    const res = await app.admin("/admin/catalog-sync/settings", { body })
    expect(res.status).toBe(400)
    expect(res.body.type).toBe("invalid_data")
    expect(res.body.field).toBe(field)
    expect(res.body.errors[0]).toMatchObject({ field })
    const after = await app.admin("/admin/catalog-sync/settings")
    expect(after.body.settings).toEqual(before.body.settings)
  })

  it("tests the connection with the saved or given values", async () => {
    const ok = await app.admin("/admin/catalog-sync/test-connection", { body: {} })
    expect(ok.status).toBe(200)
    expect(ok.body.ok).toBe(true)
    expect(ok.body.account).toMatchObject({ limits: expect.any(Object), usage: expect.any(Object) })
    const bad = await app.admin("/admin/catalog-sync/test-connection", { body: { api_key: "nope-1111" } })
    expect(bad.status).toBe(200)
    expect(bad.body).toMatchObject({ ok: false, error: { code: "invalid_api_key" } })
    const invalid = await app.admin("/admin/catalog-sync/test-connection", { body: { base_url: "nope" } })
    expect(invalid.status).toBe(400)
    expect(invalid.body.field).toBe("base_url")
  })

  it("never sends the saved key to another base URL", async () => {
    const seen: string[] = []
    const trap = http.createServer((req, res) => {
      seen.push(String(req.headers["x-api-key"] ?? ""))
      res.writeHead(401, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: { code: "invalid_api_key", message: "no" } }))
    })
    await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve))
    const trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`
    try {
      const before = await app.admin("/admin/catalog-sync/settings")
      const test = await app.admin("/admin/catalog-sync/test-connection", { body: { base_url: trapUrl } })
      expect(test.status).toBe(400)
      expect(test.body.field).toBe("api_key")
      const save = await app.admin("/admin/catalog-sync/settings", { body: { base_url: trapUrl } })
      expect(save.status).toBe(400)
      expect(save.body.field).toBe("api_key")
      const masked = await app.admin("/admin/catalog-sync/settings", { body: { base_url: trapUrl, api_key: before.body.settings.api_key } })
      expect(masked.status).toBe(400)
      expect(masked.body.field).toBe("api_key")
      expect(seen).toEqual([])
      // With its own key, another address may be tested; only that key goes there.
      const own = await app.admin("/admin/catalog-sync/test-connection", { body: { base_url: trapUrl, api_key: "other-key-1234" } })
      expect(own.status).toBe(200)
      expect(own.body).toMatchObject({ ok: false, error: { code: "invalid_api_key" } })
      expect(seen.length).toBeGreaterThan(0)
      expect(new Set(seen)).toEqual(new Set(["other-key-1234"]))
      for (const base_url of ["http://user:pw@127.0.0.1:1", "http://127.0.0.1:1/?x=1", "http://127.0.0.1:1/#f"]) {
        const res = await app.admin("/admin/catalog-sync/test-connection", { body: { base_url, api_key: "other-key-1234" } })
        expect(res.status).toBe(400)
        expect(res.body.field).toBe("base_url")
      }
      const crlf = await app.admin("/admin/catalog-sync/settings", { body: { api_key: "abc\r\nx-evil: 1" } })
      expect(crlf.status).toBe(400)
      expect(crlf.body.field).toBe("api_key")
      const after = await app.admin("/admin/catalog-sync/settings")
      expect(after.body.settings).toEqual(before.body.settings)
    } finally {
      await new Promise<void>((resolve) => trap.close(() => resolve()))
    }
  })

  it("shows plan, limits and usage in /status, and the next run time", async () => {
    // The first save of a shop that never synced started its first sync; wait for it to end.
    const status = await waitFor("the first run to end", async () => {
      const res = await app.admin("/admin/catalog-sync/status")
      return res.body.state === "running" ? null : res
    })
    expect(status.status).toBe(200)
    expect(status.body.state).toBe("idle")
    expect(status.body.last_run).toMatchObject({ status: "succeeded", mode: "full", trigger: "settings" })
    expect(status.body.products_synced).toBe(20)
    expect(status.body.account).toMatchObject({ limits: { requests_per_minute: expect.any(Number) } })
    expect(status.body.account_error).toBeNull()
    // The schedule follows the interval saved (7 minutes), counted from the save.
    const inMinutes = (iso: string) => (Date.parse(iso) - Date.now()) / 60_000
    expect(inMinutes(status.body.next_run_at)).toBeGreaterThan(5)
    expect(inMinutes(status.body.next_run_at)).toBeLessThanOrEqual(7)
    expect(status.body.quota.quota_remaining).toEqual(expect.any(Number))
  })

  it("reschedules at once when the interval changes, and drops the schedule when disabled", async () => {
    await app.admin("/admin/catalog-sync/settings", { body: { poll_interval_minutes: 15 } })
    const later = await app.admin("/admin/catalog-sync/status")
    expect((Date.parse(later.body.next_run_at) - Date.now()) / 60_000).toBeGreaterThan(14)
    await app.admin("/admin/catalog-sync/settings", { body: { poll_interval_minutes: 5 } })
    const sooner = await app.admin("/admin/catalog-sync/status")
    const minutes = (Date.parse(sooner.body.next_run_at) - Date.now()) / 60_000
    expect(minutes).toBeGreaterThan(4)
    expect(minutes).toBeLessThanOrEqual(5)
    await app.admin("/admin/catalog-sync/settings", { body: { enabled: false } })
    const off = await app.admin("/admin/catalog-sync/status")
    expect(off.body).toMatchObject({ state: "disabled", next_run_at: null })
    const refused = await app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(refused.status).toBe(400)
    expect(refused.body.field).toBe("enabled")
    await app.admin("/admin/catalog-sync/settings", { body: { enabled: true } })
    expect((await app.admin("/admin/catalog-sync/status")).body.next_run_at).toEqual(expect.any(String))
  })

  it("accepts a real stock location and sales channel", async () => {
    const channels = await app.admin("/admin/sales-channels?limit=1")
    const channelId = channels.body.sales_channels[0].id
    const res = await app.admin("/admin/catalog-sync/settings", { body: { sales_channel_id: channelId } })
    expect(res.status).toBe(200)
    expect(res.body.settings.sales_channel_id).toBe(channelId)
  })

  it("saves pricing rules whole: a crossed-out rule of another type keeps no key of the old one", async () => {
    const rules = (crossed_out: Record<string, string>) => ({ base_markup_percent: "30", rounding: { mode: "none" }, overrides: [], crossed_out })
    const first = await app.admin("/admin/catalog-sync/settings", {
      body: { pricing_rules: rules({ type: "discount", discount_percent: "20" }), confirm_price_guards: true },
    })
    expect(first.status).toBe(200)
    const second = await app.admin("/admin/catalog-sync/settings", {
      body: { pricing_rules: rules({ type: "markup", markup_percent: "120" }), confirm_price_guards: true },
    })
    expect(second.status).toBe(200)
    expect(second.body.settings.pricing_rules_saved).toBe(true)
    expect(second.body.settings.pricing_rules.crossed_out).toEqual({ type: "markup", markup_percent: "120" })
    // What is stored, read by SQL: the row holds exactly the second rules (the module's update merges objects).
    const pg = new Client({ connectionString: db.url })
    await pg.connect()
    try {
      const { rows } = await pg.query("select pricing_rules from mcs_sync_settings where deleted_at is null")
      expect(rows).toHaveLength(1)
      expect(rows[0].pricing_rules.crossed_out).toEqual({ type: "markup", markup_percent: "120" })
    } finally {
      await pg.end()
    }
  })

  it("validates run requests and history paging", async () => {
    const bad = await app.admin("/admin/catalog-sync/runs", { body: { mode: "everything" } })
    expect(bad.status).toBe(400)
    expect(bad.body.field).toBe("mode")
    const list = await app.admin("/admin/catalog-sync/runs?limit=5&offset=0")
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ limit: 5, offset: 0, count: expect.any(Number) })
    const badList = await app.admin("/admin/catalog-sync/runs?limit=0")
    expect(badList.status).toBe(400)
    expect(badList.body.field).toBe("limit")
    const missing = await app.admin("/admin/catalog-sync/runs/csrun_nope")
    expect(missing.status).toBe(404)
  })

  it("never prints the key", async () => {
    expect(app.logs()).not.toContain(API_KEY)
  })
})
