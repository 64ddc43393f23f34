// The first full sync starts at once, not at the first scheduled poll: saving a working key on a
// shop that never synced queues it even when the pricing did not change, and a key already in the
// plugin options queues it at boot. Later saves that change no pricing queue nothing.
import { randomUUID } from "node:crypto"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { configure, sql, waitFor, waitForRun } from "./poll-and-query"

jest.setTimeout(300_000)

describe("first sync on first save", () => {
  let sandbox: Sandbox
  const apiKey = `k-${randomUUID()}`
  const productCount = async (url: string) => Number((await sql(url, "select count(*)::int as n from product where deleted_at is null"))[0].n)

  beforeAll(async () => {
    sandbox = await startSandbox({ products: 20, seed: 11, apiKey, rpm: 6000, port: 0, controlPort: 0 })
  })

  afterAll(async () => {
    await sandbox?.close()
  })

  describe("key saved in the admin, pricing left as the options set it", () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>
    let app: MedusaApp

    beforeAll(async () => {
      db = await createTestDatabase("first-sync-save")
      app = await startMedusaApp({
        databaseUrl: db.url,
        label: "first-sync-save",
        env: { CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`, CATALOG_BASE_URL: "", CATALOG_API_KEY: "" },
      })
    })

    afterAll(async () => {
      await app?.stop()
      await db?.drop()
    })

    it("queues the first full sync in the save's answer and runs it", async () => {
      const saved = await configure(app, { base_url: sandbox.baseUrl, api_key: apiKey })
      expect(saved.pricing_changed).toBe(false)
      expect(saved.run).toMatchObject({ mode: "full", trigger: "settings" })
      expect(["queued", "running", "succeeded"]).toContain(saved.run.status)
      const run = await waitForRun(app, saved.run.id)
      expect(run.status).toBe("succeeded")
      expect(await productCount(db.url)).toBe(20)
    })

    it("queues nothing more once the shop has synced", async () => {
      const saved = await configure(app, { poll_interval_minutes: 12 })
      expect(saved.pricing_changed).toBe(false)
      expect(saved.run).toBeUndefined()
      const runs = await app.admin("/admin/catalog-sync/runs?limit=10&offset=0")
      expect(runs.body.runs).toHaveLength(1)
    })
  })

  describe("base URL and key in the plugin options", () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>
    let app: MedusaApp

    beforeAll(async () => {
      db = await createTestDatabase("first-sync-boot")
      app = await startMedusaApp({
        databaseUrl: db.url,
        label: "first-sync-boot",
        env: { CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`, CATALOG_BASE_URL: sandbox.baseUrl, CATALOG_API_KEY: apiKey },
      })
    })

    afterAll(async () => {
      await app?.stop()
      await db?.drop()
    })

    it("starts the first full sync at boot, with no save", async () => {
      const first = await waitFor(
        "a run queued at boot",
        async () => {
          const res = await app.admin("/admin/catalog-sync/runs?limit=10&offset=0")
          return res.body?.runs?.[0] ?? null
        },
        60_000
      )
      expect(first).toMatchObject({ mode: "full", trigger: "settings" })
      const run = await waitForRun(app, first.id)
      expect(run.status).toBe("succeeded")
      expect(await productCount(db.url)).toBe(20)
      const status = await app.admin("/admin/catalog-sync/status")
      expect(status.body.last_run).toMatchObject({ status: "succeeded", mode: "full" })
    })
  })
})
