// @runs-alone: blocks its app's event loop against a 10 s job lock; another app on the same cores shifts that timing
// Liveness under a slow page and a blocked event loop: two instances on one database and one
// Redis; the process running the sync blocks its event loop (a synchronous loop) for longer
// than any lock duration (BullMQ's job lock) while writing page 1, and waits long before
// writing page 2. BullMQ meanwhile hands the job out again as stalled: the other
// instance must see the run alive and do nothing. Throughout, the run is never shown
// interrupted, never two runs run, a second instance never starts one, and the shop ends exact.
// The instances run with a 10 s BullMQ job lock (CATALOG_SYNC_JOB_LOCK_MS, which also sets the
// stalled-job check) so the 45 s block outlasts the lock and two stall checks. MCS_LIVENESS_LOCK_MS,
// MCS_LIVENESS_BLOCK_MS and MCS_LIVENESS_DELAY_MS change the times (production's lock and a
// page of minutes: 60000, 110000, 60000).
import { randomUUID } from "node:crypto"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { compareShop, readCatalog, readShop } from "./sync-helpers"
import { configure, sql, waitFor } from "./poll-and-query"

jest.setTimeout(1_200_000)

const LOCK_MS = Number(process.env.MCS_LIVENESS_LOCK_MS) || 10_000
const BLOCK_MS = Number(process.env.MCS_LIVENESS_BLOCK_MS) || 45_000
const DELAY_MS = Number(process.env.MCS_LIVENESS_DELAY_MS) || 30_000

describe("run liveness: slow pages and a blocked event loop, two instances", () => {
  let sb: Sandbox
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let a: MedusaApp
  let b: MedusaApp

  beforeAll(async () => {
    sb = await startSandbox({ products: 300, seed: 41, apiKey: `k-${randomUUID()}`, rpm: 100_000, concurrency: 3, port: 0, controlPort: 0 })
    db = await createTestDatabase("liveness")
    const env = {
      CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`,
      // Scheduled polls keep arriving on both instances while the run goes: none may start a run.
      CATALOG_SYNC_SCHEDULE_EVERY_MS: "5000",
      CATALOG_SYNC_JOB_LOCK_MS: String(LOCK_MS),
      CATALOG_BASE_URL: "",
      CATALOG_API_KEY: "",
      // Test hooks (src/sync-run/test-hooks.ts): page 1 blocks the event loop, page 2 waits.
      CATALOG_SYNC_TEST_BLOCK_LOOP_MS: `${BLOCK_MS}@1`,
      CATALOG_SYNC_TEST_PAGE_DELAY_MS: `${DELAY_MS}@2`,
      // Only the full run: the scheduled (changes) runs after it go at normal speed.
      CATALOG_SYNC_TEST_HOOK_MODE: "full",
    }
    a = await startMedusaApp({ databaseUrl: db.url, label: "liveness-a", env })
    b = await startMedusaApp({ databaseUrl: db.url, label: "liveness-b", env })
  })
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await db?.drop()
    await sb?.close()
  })

  /** An admin request that gives up after a while (the blocked instance answers nothing). */
  const tryAdmin = async (app: MedusaApp, path: string, body?: unknown) => {
    try {
      return await Promise.race([app.admin(path, body === undefined ? undefined : { body }), new Promise<null>((r) => setTimeout(() => r(null), 3000))])
    } catch {
      return null
    }
  }

  it("the run is never interrupted, never overlaps another, and ends exact", async () => {
    const saved = await configure(a, { base_url: sb.baseUrl, api_key: sb.apiKey, markup_percent: "30" })
    const runId: string = saved.run.id
    const started = Date.now()

    const seen = { statuses: new Set<string>(), maxRunning: 0, statusChecks: 0, secondRunRequests: 0, states: new Set<string>() }
    const problems: string[] = []
    const queuedAside: { run: { id: string; created_at: string } }[] = []
    let done = false
    const watch = (async () => {
      let i = 0
      while (!done) {
        const rows = await sql(db.url, "select id, status from mcs_sync_run")
        const ours = rows.find((r) => r.id === runId)
        if (ours) seen.statuses.add(ours.status)
        if (ours?.status === "interrupted") problems.push(`run marked interrupted at ${Date.now() - started} ms`)
        const running = rows.filter((r) => r.status === "running").length
        seen.maxRunning = Math.max(seen.maxRunning, running)
        if (running > 1) problems.push(`${running} runs running at ${Date.now() - started} ms`)
        if (ours?.status === "running") {
          for (const app of [a, b]) {
            const status = await tryAdmin(app, "/admin/catalog-sync/status")
            if (!status) continue // the blocked instance
            seen.statusChecks++
            const st = status.body
            const stillRunning = (await sql(db.url, "select status from mcs_sync_run where id = $1", [runId]))[0].status === "running"
            if (!stillRunning) continue
            seen.states.add(st.state)
            if (st.state !== "running" || st.running_run?.id !== runId)
              problems.push(`status ${st.state} running_run ${st.running_run?.id} at ${Date.now() - started} ms`)
            if (st.last_run?.id === runId) problems.push(`status shows the live run as ended (${st.last_run.status})`)
            // A second run must not start: "Sync now" answers with the live run.
            if (i % 10 === 0) {
              const res = await tryAdmin(app, "/admin/catalog-sync/runs", { mode: "changes" })
              if (res) {
                seen.secondRunRequests++
                // Judged once the run has ended: the request may land after the run's last write.
                if (!res.body.already_running || res.body.run.id !== runId) queuedAside.push(res.body)
              }
            }
          }
        }
        i++
        await new Promise((r) => setTimeout(r, 500))
      }
    })()

    const final = await waitFor(
      "the slow run to end",
      async () => {
        const [row] = await sql(db.url, "select * from mcs_sync_run where id = $1", [runId])
        return ["succeeded", "failed", "interrupted"].includes(row.status) ? row : null
      },
      900_000,
      1000
    )
    done = true
    await watch
    // "Sync now" between the run's end (finished_at, written before its lock is released) and
    // the watcher noticing it rightly queues the next run; one queued before the end is a fault.
    const endedAt = new Date(final.finished_at).getTime()
    for (const aside of queuedAside) {
      if (new Date(aside.run.created_at).getTime() < endedAt) problems.push(`a second run was queued while the run was live: ${JSON.stringify(aside)}`)
    }
    const tookMs = Date.now() - started
    const runner = a.logs().includes(`run ${runId} (`) ? "a" : "b"
    const other = runner === "a" ? b : a
    const redelivered = (other.logs().match(/handed out again; skipped \(running_elsewhere\)/g) ?? []).length
    console.log(
      `slow run ${runId} on instance ${runner}: ${final.status} in ${tookMs} ms (loop blocked ${BLOCK_MS} ms on page 1, ` +
        `page 2 waited ${DELAY_MS} ms); statuses seen ${[...seen.statuses]}; /status answers ${seen.statusChecks} ` +
        `(${[...seen.states]}); "sync now" requests during the run ${seen.secondRunRequests}; stalled job handed out again and skipped ${redelivered}×`
    )
    expect(problems).toEqual([])
    expect([final.status, final.error_message]).toEqual(["succeeded", null])
    expect(seen.statuses.has("interrupted")).toBe(false)
    expect(seen.maxRunning).toBe(1)
    expect(seen.statusChecks).toBeGreaterThan(10)
    expect(seen.secondRunRequests).toBeGreaterThan(0)
    // The scenario happened: the loop was blocked past BullMQ's job lock, and its job went to the other instance.
    expect(tookMs).toBeGreaterThan(BLOCK_MS + DELAY_MS)
    expect(redelivered).toBeGreaterThanOrEqual(1)

    // Scheduled polls resume after it; let them settle, then compare.
    await waitFor(
      "no run active",
      async () => {
        const rows = await sql(db.url, "select id from mcs_sync_run where status in ('queued', 'running')")
        return rows.length === 0
      },
      120_000,
      500
    )
    const runs = await sql(db.url, "select id, status, started_at, finished_at from mcs_sync_run where started_at is not null order by started_at")
    for (const r of runs) expect(r.status).toBe("succeeded")
    for (let i = 1; i < runs.length; i++) {
      expect(new Date(runs[i].started_at).getTime()).toBeGreaterThanOrEqual(new Date(runs[i - 1].finished_at).getTime())
    }
    const cards = await readCatalog(sb.baseUrl, sb.apiKey)
    expect(compareShop(cards, await readShop(db.url))).toEqual([])
    expect(await sql(db.url, "select external_id, count(*)::int as n from product where deleted_at is null group by external_id having count(*) > 1")).toEqual(
      []
    )
  })
})
