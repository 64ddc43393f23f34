// While interrupted work waits for a worker, /status says so ("resuming", never "idle"): a
// worker instance is killed mid-run while an HTTP-only instance keeps answering; when a worker
// comes back it resumes the run from its stored cursor at once and the shop ends exact.
import { randomUUID } from "node:crypto"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { compareShop, readCatalog, readShop } from "./sync-helpers"
import { configure, sql, waitFor, waitForRun } from "./poll-and-query"

jest.setTimeout(600_000)

describe("/status while interrupted work is pending, and fencing", () => {
  let sb: Sandbox
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let worker: MedusaApp | null = null
  let server: MedusaApp
  const env = {
    CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`,
    CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000),
    CATALOG_BASE_URL: "",
    CATALOG_API_KEY: "",
  }

  beforeAll(async () => {
    sb = await startSandbox({ products: 800, seed: 51, apiKey: `k-${randomUUID()}`, rpm: 100_000, latencyMs: 200, port: 0, controlPort: 0 })
    db = await createTestDatabase("resuming-and-fencing")
    worker = await startMedusaApp({ databaseUrl: db.url, label: "resuming-and-fencing-worker", env, workerMode: "shared" })
    server = await startMedusaApp({ databaseUrl: db.url, label: "resuming-and-fencing-server", env, workerMode: "server" })
  })
  afterAll(async () => {
    await Promise.all([worker?.stop(), server?.stop()])
    await db?.drop()
    await sb?.close()
  })

  it("shows 'resuming' with the interrupted run until a worker resumes it", async () => {
    const { run } = await configure(server, { base_url: sb.baseUrl, api_key: sb.apiKey, markup_percent: "30" })
    await waitFor(
      "a committed page",
      async () => {
        const res = await server.admin(`/admin/catalog-sync/runs/${run.id}`)
        return res.body.run.status === "running" && res.body.run.pages >= 1
      },
      180_000,
      100
    )
    await worker!.kill()
    worker = null

    const status = (await server.admin("/admin/catalog-sync/status")).body
    expect(status).toMatchObject({ state: "resuming", running_run: null, resuming_run: { id: run.id, status: "interrupted", error_code: "process_stopped" } })
    // It stays so while no worker runs: never "idle".
    await new Promise((r) => setTimeout(r, 6000))
    expect((await server.admin("/admin/catalog-sync/status")).body.state).toBe("resuming")
    const stored = (await sql(db.url, "select cursor, full_pass_id from mcs_sync_state"))[0]
    expect(stored.cursor).toEqual(expect.any(String))

    worker = await startMedusaApp({ databaseUrl: db.url, label: "resuming-and-fencing-worker-2", env, workerMode: "shared" })
    const resumed = await waitFor(
      "the resumed run",
      async () => {
        const st = (await server.admin("/admin/catalog-sync/status")).body
        expect(st.state).not.toBe("idle")
        return st.state === "running" && st.running_run?.trigger === "retry" ? st.running_run : null
      },
      60_000,
      200
    )
    expect(resumed.progress?.pass_id).toBe(stored.full_pass_id)
    const done = await waitForRun(server, resumed.id, undefined, 300_000)
    expect(done.status).toBe("succeeded")
    expect((await server.admin("/admin/catalog-sync/status")).body).toMatchObject({ state: "idle", resuming_run: null })
    expect(compareShop(await readCatalog(sb.baseUrl, sb.apiKey), await readShop(db.url))).toEqual([])
  })

  it("fencing: a run whose lock connection is cut stops without storing its cursor, and its pass is resumed", async () => {
    sb.control.mutate({ count: 30, kinds: ["price", "stock"] })
    const res = await server.admin("/admin/catalog-sync/runs", { body: { mode: "full" } })
    expect(res.body.already_running).toBe(false)
    const runId = res.body.run.id
    await waitFor(
      "a committed page",
      async () => {
        const r = await server.admin(`/admin/catalog-sync/runs/${runId}`)
        return r.body.run.status === "running" && r.body.run.pages >= 1
      },
      180_000,
      100
    )
    // The run lock's connection goes (as when PostgreSQL drops a session): the lock with it.
    const cut = await sql(
      db.url,
      "select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = 'medusa-catalog-sync:run-lock' and datname = current_database()"
    )
    expect(cut.length).toBe(1)
    const cutAt = Date.now()
    const fenced = await waitForRun(server, runId, ["succeeded", "failed", "interrupted"], 120_000)
    expect(fenced).toMatchObject({ status: "interrupted", error_code: "lost_run_lock" })
    // Nothing stored after the cut: the state still names the fenced run, with the cursor it had.
    const [state] = await sql(db.url, "select cursor, full_pass_id, current_run_id, updated_at from mcs_sync_state")
    expect(new Date(state.updated_at).getTime()).toBeLessThanOrEqual(cutAt + 1000)
    const retry = await waitFor(
      "the retry",
      async () => {
        const [row] = await sql(db.url, "select * from mcs_sync_run where trigger = 'retry' and created_at > $1 order by created_at limit 1", [new Date(cutAt)])
        return row ?? null
      },
      30_000,
      200
    )
    expect(retry.progress.pass_id).toBe(state.full_pass_id)
    expect((await waitForRun(server, retry.id, undefined, 300_000)).status).toBe("succeeded")
    expect(compareShop(await readCatalog(sb.baseUrl, sb.apiKey), await readShop(db.url))).toEqual([])
  })
})
