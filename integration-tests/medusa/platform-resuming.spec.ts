// While interrupted work waits for a worker, /status says so ("resuming", never "idle"): a
// worker instance is killed mid-run while an HTTP-only instance keeps answering; when a worker
// comes back it resumes the run from its stored cursor at once and the shop ends exact.
import { randomUUID } from "node:crypto"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { compareShop, readCatalog, readShop } from "./engine-helpers"
import { configure, sql, waitFor, waitForRun } from "./platform-helpers"

jest.setTimeout(600_000)

describe("platform: /status while interrupted work is pending", () => {
  let sb: Sandbox
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let worker: MedusaApp | null = null
  let server: MedusaApp
  const env = { CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`, CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000), CATALOG_BASE_URL: "", CATALOG_API_KEY: "" }

  beforeAll(async () => {
    sb = await startSandbox({ products: 800, seed: 51, apiKey: `k-${randomUUID()}`, rpm: 100_000, latencyMs: 200, port: 0, controlPort: 0 })
    db = await createTestDatabase("platform-resuming")
    worker = await startMedusaApp({ databaseUrl: db.url, label: "platform-resuming-worker", env, workerMode: "shared" })
    server = await startMedusaApp({ databaseUrl: db.url, label: "platform-resuming-server", env, workerMode: "server" })
  })
  afterAll(async () => {
    await Promise.all([worker?.stop(), server?.stop()])
    await db?.drop()
    await sb?.close()
  })

  it("shows 'resuming' with the interrupted run until a worker resumes it", async () => {
    const { run } = await configure(server, { base_url: sb.baseUrl, api_key: sb.apiKey, markup_percent: "30" })
    await waitFor("a committed page", async () => {
      const res = await server.admin(`/admin/catalog-sync/runs/${run.id}`)
      return res.body.run.status === "running" && res.body.run.pages >= 1
    }, 180_000, 100)
    await worker!.kill()
    worker = null

    const status = (await server.admin("/admin/catalog-sync/status")).body
    expect(status).toMatchObject({ state: "resuming", running_run: null, resuming_run: { id: run.id, status: "interrupted", error_code: "process_stopped" } })
    // It stays so while no worker runs: never "idle".
    await new Promise((r) => setTimeout(r, 6000))
    expect((await server.admin("/admin/catalog-sync/status")).body.state).toBe("resuming")
    const stored = (await sql(db.url, "select cursor, full_pass_id from catalog_sync_state"))[0]
    expect(stored.cursor).toEqual(expect.any(String))

    worker = await startMedusaApp({ databaseUrl: db.url, label: "platform-resuming-worker-2", env, workerMode: "shared" })
    const resumed = await waitFor("the resumed run", async () => {
      const st = (await server.admin("/admin/catalog-sync/status")).body
      expect(st.state).not.toBe("idle")
      return st.state === "running" && st.running_run?.trigger === "retry" ? st.running_run : null
    }, 60_000, 200)
    expect(resumed.progress?.pass_id).toBe(stored.full_pass_id)
    const done = await waitForRun(server, resumed.id, undefined, 300_000)
    expect(done.status).toBe("succeeded")
    expect((await server.admin("/admin/catalog-sync/status")).body).toMatchObject({ state: "idle", resuming_run: null })
    expect(compareShop(await readCatalog(sb.baseUrl, sb.apiKey), await readShop(db.url))).toEqual([])
  })
})
