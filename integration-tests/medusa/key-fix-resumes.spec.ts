// @runs-alone: asserts the run starts within 8 s of saving the key
// A fixed key resumes at once: the catalog refuses the key (revoked through the sandbox's
// control API), a run fails and the shop shows "key_invalid"; saving the new key clears the
// blocked state and starts a run within seconds (the schedule is a day away here, so only the
// save can have started it), and that run brings the catalog's changes into the shop.
import { compareShop, configureAndWait, PRICING, readCatalog, readShop, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"
import { configure, sql, waitFor, waitForRun } from "./poll-and-query"

jest.setTimeout(900_000)

/** How soon after the save the blocked work must be running (generous for a loaded machine). */
const STARTS_WITHIN_MS = 8_000

describe("a fixed key resumes at once", () => {
  let env: SyncEnv

  beforeAll(async () => {
    env = await startSyncEnv("key-fix-resumes", { products: 40, seed: 21 })
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run?.status).toBe("succeeded")
  })
  afterAll(async () => {
    await env?.close()
  })

  it("refused key → replaced → a run starts within seconds, status no longer failed, the changes reach the shop", async () => {
    const changed = env.sb.control.mutate({ count: 5, kinds: ["price"] }) as unknown
    expect(changed).toBeTruthy()
    const newKey = (env.sb.control.revokeKey() as { api_key: string }).api_key
    const failed = await runAndWait(env, "changes")
    expect(failed).toMatchObject({ status: "failed", error_code: "invalid_api_key" })
    const blocked = await env.app.admin("/admin/catalog-sync/status")
    expect(blocked.body).toMatchObject({ state: "key_invalid", blocked: { code: "invalid_api_key" } })
    const blockedRow = (await sql(env.db.url, "select blocked_code from mcs_sync_state where deleted_at is null"))[0]
    expect(blockedRow.blocked_code).toBe("invalid_api_key")

    const savedAt = Date.now()
    const saved = await configure(env.app, { api_key: newKey })
    expect(saved.run).toMatchObject({ trigger: "settings", mode: "changes" })
    // Within seconds: the run is running (or already done), read from the runs table itself.
    const started = await waitFor(
      "the resumed run to start",
      async () => {
        const rows = await sql(env.db.url, "select id, status, started_at from mcs_sync_run where id = $1", [saved.run.id])
        return rows[0]?.started_at ? rows[0] : null
      },
      STARTS_WITHIN_MS,
      100
    )
    expect(new Date(started.started_at).getTime() - savedAt).toBeLessThan(STARTS_WITHIN_MS)
    const status = await env.app.admin("/admin/catalog-sync/status")
    expect(["running", "idle"]).toContain(status.body.state)
    expect(status.body.blocked).toBeNull()
    expect((await sql(env.db.url, "select blocked_code from mcs_sync_state where deleted_at is null"))[0].blocked_code).toBeNull()

    const done = await waitForRun(env.app, saved.run.id)
    expect(done).toMatchObject({ status: "succeeded", error_code: null })
    // The shop as PostgreSQL holds it is the catalog as the sandbox now serves it (new key).
    expect(compareShop(await readCatalog(env.sb.baseUrl, newKey, PRICING), await readShop(env.db.url))).toEqual([])
    const after = await env.app.admin("/admin/catalog-sync/status")
    expect(after.body.state).toBe("idle")
    expect(after.body.last_run).toMatchObject({ id: saved.run.id, status: "succeeded" })
  })
})
