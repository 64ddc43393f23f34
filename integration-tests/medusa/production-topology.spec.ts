// @runs-alone: asserts a resume within 20 s of the kill and the schedule's gaps between runs
// The production topology: one `server` instance (HTTP only) and two `worker` instances of one
// app, on one database and one Redis prefix, every instance with the same environment (page
// writers and pages in flight switched on everywhere, as a deployment would set them).
//
// Proved against the catalog's own request log (a loopback proxy in front of the sandbox) and
// Medusa's tables read with SQL, never the plugin's own word alone:
// - "Sync now" on the server runs on a worker: the run's process id is a worker's, the server
//   starts no run and writes no page;
// - the server's /status and /progress follow the run live and end equal to SQL;
// - page writers on both workers share a pass;
// - a worker killed with kill -9 mid-run is resumed by the other worker within seconds, with at
//   most one page written again, and the shop ends equal to the catalog;
// - the schedule fires once per interval across the three instances (after a rolling restart
//   with a test-only short interval).
// - each worker instance runs at nice 10 (workerNice), the server at its own priority.
// MCS_TOPOLOGY_PRODUCTS (default 1200, pages of 200) makes it larger.
import { randomUUID } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { judgeProductMap, judgeShop, readShopTruth, type TruthCard } from "../harness/shop-truth"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { configure, sql, waitFor, waitForRun } from "./poll-and-query"
import { readCatalog, startCatalogProxy } from "./sync-helpers"

jest.setTimeout(1_200_000)

const PRODUCTS = Number(process.env.MCS_TOPOLOGY_PRODUCTS) || 1200
/** The resumed run's first request must follow the kill within this (recovery checks every 5 s). */
const RESUME_WITHIN_MS = 20_000
/** The short, test-only schedule of the last test. */
const SCHEDULE_EVERY_MS = 10_000
const SCHEDULE_INTERVALS = 4

type Req = { at: number; path: string; cursor: string | null }

describe("production topology: a server and two workers", () => {
  let sandbox: Sandbox
  let proxy: Awaited<ReturnType<typeof startCatalogProxy>>
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let server: MedusaApp
  let workers: MedusaApp[] = []
  /** Every instance ever started, for the logs (a killed worker's log stays readable). */
  const everyApp: MedusaApp[] = []
  const requests: Req[] = []
  const apiKey = `k-${randomUUID()}`
  const prefix = `mcs-test-${randomUUID()}`
  const env = (scheduleEveryMs: number) => ({
    CATALOG_SYNC_REDIS_PREFIX: prefix,
    CATALOG_SYNC_SCHEDULE_EVERY_MS: String(scheduleEveryMs),
    CATALOG_BASE_URL: "",
    CATALOG_API_KEY: "",
    // The same on every instance: a server-mode instance must neither run nor write.
    CATALOG_SYNC_PAGES_IN_FLIGHT: "2",
    CATALOG_SYNC_PAGE_WRITERS: "1",
  })
  let started = 0
  const start = async (workerMode: "server" | "worker", scheduleEveryMs: number) => {
    const app = await startMedusaApp({ databaseUrl: db.url, label: `topology-${workerMode}-${started++}`, workerMode, env: env(scheduleEveryMs) })
    everyApp.push(app)
    return app
  }

  /** Which process started each run: "run <id> (<mode>, <trigger>) started in process <pid>". */
  const runStarts = () =>
    everyApp.flatMap((app) =>
      [...app.logs().matchAll(/catalog sync: run (csrun_\w+) \((\w+), (\w+)\) started in process (\d+)/g)].map((m) => ({ app, runId: m[1], pid: Number(m[4]) }))
    )
  const startedBy = (runId: string) => runStarts().filter((s) => s.runId === runId)
  const writtenBy = (app: MedusaApp, runId: string) => (app.logs().match(new RegExp(`page \\d+ of run ${runId}: written here`, "g")) ?? []).length
  const changesRequests = () => requests.filter((r) => r.path === "/v1/products/changes")

  const shopEqualsCatalog = async () => {
    const cards = (await readCatalog(sandbox.baseUrl, apiKey)) as unknown as TruthCard[]
    expect(judgeShop(cards, await readShopTruth(db.url))).toEqual([])
    expect(await judgeProductMap(db.url)).toEqual([])
    expect(await sql(db.url, "select sku from inventory_item where deleted_at is null and sku is not null group by sku having count(*) > 1")).toEqual([])
    return cards
  }
  const runRow = async (id: string) => (await sql(db.url, "select * from mcs_sync_run where id = $1", [id]))[0]

  beforeAll(async () => {
    // Latency keeps pages in flight while the next one is read, and a run long enough to follow.
    sandbox = await startSandbox({ products: PRODUCTS, seed: 37, apiKey, rpm: 100_000, concurrency: 3, latencyMs: 100, port: 0, controlPort: 0 })
    proxy = await startCatalogProxy(sandbox.baseUrl)
    proxy.hooks.beforeForward = (url) => {
      const u = new URL(url, "http://x")
      requests.push({ at: Date.now(), path: u.pathname, cursor: u.searchParams.get("cursor") })
    }
    db = await createTestDatabase("production-topology")
    // No schedule in the first tests (a day); the last one restarts everything with a short one.
    server = await start("server", 24 * 3600_000)
    workers = await Promise.all([start("worker", 24 * 3600_000), start("worker", 24 * 3600_000)])
  })

  afterAll(async () => {
    await Promise.all([server?.stop(), ...workers.map((w) => w.stop())])
    await proxy?.close()
    await db?.drop()
    await sandbox?.close()
  })

  it("each worker instance runs at nice 10 on every thread (workerNice's default), the server at its own", async () => {
    // Linux keeps a niceness per thread (field 19 of /proc/<pid>/task/<tid>/stat).
    const nicesOf = (pid: number) =>
      new Set(fs.readdirSync(`/proc/${pid}/task`).map((tid) => Number(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1].split(" ")[16])))
    const own = os.getPriority()
    for (const w of workers) {
      expect(nicesOf(w.pid)).toEqual(new Set([Math.max(10, own)]))
      expect(w.logs()).toMatch(/this worker instance runs at nice 10/)
    }
    expect(nicesOf(server.pid)).toEqual(new Set([own]))
  })

  it("the first sync, asked on the server, runs on a worker, is written by both workers' page writers, and the server's status follows it live", async () => {
    const { run } = await configure(server, { base_url: proxy.url, api_key: apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ mode: "full" })

    // The server's /status and /progress, polled while the run goes on.
    const seen: { state: string; status: string | null; pages: number; items: number; created: number; progressPages: number }[] = []
    for (;;) {
      const [status, progress] = await Promise.all([server.admin("/admin/catalog-sync/status"), server.admin("/admin/catalog-sync/progress")])
      expect([status.status, progress.status]).toEqual([200, 200])
      const live = status.body.running_run
      if (live) {
        expect(live.id).toBe(run.id)
        seen.push({
          state: status.body.state,
          status: live.status,
          pages: live.pages,
          items: live.items_seen,
          created: live.created,
          progressPages: progress.body.running_run?.pages ?? -1,
        })
      }
      if (!live && status.body.last_run?.id === run.id) break
      await new Promise((r) => setTimeout(r, 250))
    }
    const done = await runRow(run.id)
    expect([done.status, done.error_message]).toEqual(["succeeded", null])

    // Live: the counts moved while the run was running, never backwards, and the state said so.
    const running = seen.filter((s) => s.status === "running")
    expect(running.every((s) => s.state === "running")).toBe(true)
    expect(new Set(running.map((s) => s.pages)).size).toBeGreaterThanOrEqual(3)
    expect(new Set(running.map((s) => s.created)).size).toBeGreaterThanOrEqual(3)
    for (let i = 1; i < running.length; i++) {
      expect(running[i].pages).toBeGreaterThanOrEqual(running[i - 1].pages)
      expect(running[i].items).toBeGreaterThanOrEqual(running[i - 1].items)
    }
    expect(running.some((s) => s.progressPages > 0)).toBe(true)

    // At the end, what the server says is what the tables hold.
    const status = (await server.admin("/admin/catalog-sync/status")).body
    const progress = (await server.admin("/admin/catalog-sync/progress")).body
    expect(status.state).toBe("idle")
    for (const last of [status.last_run, progress.last_run]) {
      expect(last).toMatchObject({ id: run.id, status: "succeeded", pages: done.pages, created: done.created, items_seen: done.items_seen })
    }
    const [{ n: liveProducts }] = await sql(db.url, "select count(*)::int as n from product where deleted_at is null and metadata->>'catalog_sync' = 'true'")
    const [{ n: mapped }] = await sql(db.url, "select count(*)::int as n from mcs_product_map where deleted_at is null and status = 'active'")
    expect(status.products_synced).toBe(mapped)
    expect(mapped).toBe(liveProducts)
    const cards = await shopEqualsCatalog()
    expect(done.created).toBe(cards.length)
    // Every page of the pass was requested once.
    expect(changesRequests().length).toBe(done.pages)

    // Ran on a worker: one start, in a worker's process; none on the server.
    const starts = startedBy(run.id)
    expect(starts.length).toBe(1)
    expect(workers.map((w) => w.pid)).toContain(starts[0].pid)
    expect(starts[0].pid).not.toBe(server.pid)
    expect(server.logs()).not.toMatch(/catalog sync: worker started/)
    expect(server.logs()).not.toMatch(/started in process/)
    // Written by both workers' page writers, every page once; none on the server.
    const byWorker = workers.map((w) => writtenBy(w, run.id))
    console.log(
      `first sync ${run.id}: ${done.pages} pages, ${done.created} products; run in process ${starts[0].pid} (workers ${workers.map((w) => w.pid)}); pages written per worker ${byWorker}`
    )
    expect(writtenBy(server, run.id)).toBe(0)
    expect(byWorker[0]).toBeGreaterThan(0)
    expect(byWorker[1]).toBeGreaterThan(0)
    expect(byWorker[0] + byWorker[1]).toBe(done.pages)
  })

  it("a worker killed with kill -9 mid-run: the other worker resumes within seconds, at most one page written again, the shop ends exact", async () => {
    sandbox.control.mutate({ count: Math.round(PRODUCTS * 0.8), kinds: ["price", "stock", "description"] })
    const asked = await server.admin("/admin/catalog-sync/runs", { body: { mode: "full" } })
    expect([asked.status, asked.body.already_running]).toEqual([202, false])
    const runId: string = asked.body.run.id
    const runStartedAt = Date.now()

    // Killed once its first page's cursor is stored (the pass is under way, pages are in flight).
    const reader = await waitFor(
      "the run's worker",
      async () => {
        const s = startedBy(runId)[0]
        return s ? workers.find((w) => w.pid === s.pid) : null
      },
      120_000,
      20
    )
    const survivor = workers.find((w) => w !== reader)!
    await waitFor("a page of the run committed", async () => Number((await runRow(runId)).pages) >= 1, 300_000, 20)
    const before = await runRow(runId)
    expect(before.status).toBe("running")
    await reader.kill()
    const killedAt = Date.now()
    const stored = (await sql(db.url, "select cursor from mcs_sync_state where deleted_at is null limit 1"))[0].cursor as string | null
    const preKill = changesRequests().filter((r) => r.at >= runStartedAt && r.at <= killedAt)

    // The survivor resumes the pass as a "retry" run.
    const resumed = await waitFor(
      "the resumed run",
      async () =>
        (
          await sql(
            db.url,
            "select * from mcs_sync_run where created_at > (select created_at from mcs_sync_run where id = $1) and trigger = 'retry' order by created_at limit 1",
            [runId]
          )
        )[0],
      120_000,
      100
    )
    const firstAfter = await waitFor("the resumed run's first page request", async () => changesRequests().find((r) => r.at > killedAt), 120_000, 50)
    const done = await waitForRun(server, resumed.id, undefined, 600_000)
    expect([done.status, done.error_message]).toEqual(["succeeded", null])
    const killed = await runRow(runId)
    expect(killed.status).toBe("interrupted")
    expect(startedBy(resumed.id).map((s) => s.pid)).toEqual([survivor.pid])
    expect(resumed.progress?.pass_id).toBe(killed.progress?.pass_id)

    // The resume starts at the stored cursor.
    expect(firstAfter.cursor).toBe(stored)
    const resumeMs = firstAfter.at - killedAt
    // Pages the killed run had requested that the resume requested again, and of those, pages
    // whose writes had committed (the pages its writers finished minus the pages whose cursor
    // was stored: the stored cursor is the index of its page among the killed run's requests).
    const after = changesRequests().filter((r) => r.at > killedAt && r.at <= new Date(done.finished_at).getTime() + 1000)
    const requestedBefore = new Set(preKill.map((r) => r.cursor))
    const requestedAgain = after.filter((r) => requestedBefore.has(r.cursor)).length
    // (Not requested yet: every page the run requested had its cursor stored.)
    const storedAt = preKill.findIndex((r) => r.cursor === stored)
    const storedIndex = storedAt >= 0 ? storedAt : preKill.length
    expect(storedIndex).toBeGreaterThanOrEqual(1)
    const written = everyApp.reduce((n, app) => n + writtenBy(app, runId), 0)
    const writtenAgain = written - storedIndex
    const load = require("node:os")
      .loadavg()
      .map((l: number) => l.toFixed(1))
      .join(" ")
    console.log(
      `kill -9 of worker ${reader.pid} in run ${runId} (after ${killed.pages} pages stored): resumed as ${resumed.id} on worker ${survivor.pid}; ` +
        `first request of the resume ${resumeMs} ms after the kill (run row ${new Date(resumed.created_at).getTime() - killedAt} ms); ` +
        `pages requested again ${requestedAgain}, pages written again ${writtenAgain} (written by the killed run ${written}, cursors stored ${storedIndex}); load ${load}`
    )
    expect(resumeMs).toBeLessThan(RESUME_WITHIN_MS)
    expect(writtenAgain).toBeLessThanOrEqual(1)
    // The stored cursor's page, the page dispatched beside it, and the one read ahead, at most.
    expect(requestedAgain).toBeLessThanOrEqual(3)
    await shopEqualsCatalog()
    // The server never ran nor wrote anything.
    expect(server.logs()).not.toMatch(/started in process|written here/)

    workers = [survivor, await start("worker", 24 * 3600_000)]
  })

  it("the schedule fires once per interval across the three instances", async () => {
    // A rolling restart with the test-only short interval (each worker sets the schedule at start).
    await Promise.all([server.stop(), ...workers.map((w) => w.stop())])
    server = await start("server", SCHEDULE_EVERY_MS)
    workers = await Promise.all([start("worker", SCHEDULE_EVERY_MS), start("worker", SCHEDULE_EVERY_MS)])
    const status = (await server.admin("/admin/catalog-sync/status")).body
    expect(status.next_run_at).not.toBeNull()

    // Counted from the first scheduled run on, over whole intervals. A run is created when a
    // worker takes the fired job, so on a busy machine single gaps stray; duplicate schedulers
    // (one per instance) would show as three runs an interval, or gaps near zero.
    const scheduled = () =>
      sql(db.url, "select id, status, created_at, started_at, finished_at from mcs_sync_run where trigger = 'schedule' order by created_at")
    const first = await waitFor("the first scheduled run", async () => (await scheduled())[0], 3 * SCHEDULE_EVERY_MS + 60_000, 200)
    const from = new Date(first.created_at).getTime()
    const until = from + SCHEDULE_INTERVALS * SCHEDULE_EVERY_MS
    // The window over, and every run it holds ended (each reads one empty page).
    await waitFor(
      "the window to pass and its runs to end",
      async () => Date.now() > until + 1_000 && (await scheduled()).every((r) => new Date(r.created_at).getTime() >= until || r.finished_at !== null),
      SCHEDULE_INTERVALS * SCHEDULE_EVERY_MS + 60_000,
      500
    )
    const runs = (await scheduled()).filter((r) => new Date(r.created_at).getTime() < until)
    const gaps = runs.slice(1).map((r, i) => new Date(r.created_at).getTime() - new Date(runs[i].created_at).getTime())
    const who = runs.map((r) => workers.findIndex((w) => startedBy(r.id).some((s) => s.pid === w.pid)))
    // The catalog's own count: the feed requests each run made while it ran.
    const feedOf = (r: any) =>
      changesRequests().filter((q) => q.at >= new Date(r.started_at).getTime() - 1000 && q.at <= new Date(r.finished_at).getTime() + 1000).length
    const lastEnd = new Date(runs[runs.length - 1].finished_at).getTime()
    const feedInWindow = changesRequests().filter((q) => q.at >= from - 1000 && q.at <= lastEnd + 1000).length
    const meanGap = gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length)
    const load = require("node:os")
      .loadavg()
      .map((l: number) => l.toFixed(1))
      .join(" ")
    console.log(
      `schedule every ${SCHEDULE_EVERY_MS} ms: ${runs.length} scheduled runs in ${SCHEDULE_INTERVALS} intervals, gaps ${gaps} ms (mean ${Math.round(meanGap)}), ` +
        `run by workers ${who}; feed requests in the window ${feedInWindow}, per run ${runs.map(feedOf)}; load ${load}`
    )
    expect(Math.abs(runs.length - SCHEDULE_INTERVALS)).toBeLessThanOrEqual(1)
    for (const gap of gaps) expect(gap).toBeGreaterThan(SCHEDULE_EVERY_MS / 4)
    expect(Math.abs(meanGap - SCHEDULE_EVERY_MS)).toBeLessThan(SCHEDULE_EVERY_MS * 0.35)
    for (const r of runs) expect(r.status).toBe("succeeded")
    // One feed request each (nothing changed: one empty page), on a worker, never on the server.
    expect(runs.map(feedOf)).toEqual(runs.map(() => 1))
    expect(feedInWindow).toBe(runs.length)
    expect(who.every((i) => i >= 0)).toBe(true)
    expect(server.logs()).not.toMatch(/started in process/)
  })
})
