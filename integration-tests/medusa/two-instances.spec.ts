// Two app instances (two `medusa start` processes) on one database and one Redis: a run
// requested on either while one is active returns the active run, and runs never overlap.
import { randomUUID } from "node:crypto"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { configure, sql, waitFor, waitForRun } from "./poll-and-query"

jest.setTimeout(420_000)

describe("two instances sharing Redis", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let a: MedusaApp
  let b: MedusaApp
  let server: MedusaApp
  let sandbox: Sandbox
  const apiKey = `k-${randomUUID()}`
  // Not "sizes": that is the sync's concern (and is tested there); here runs only need work to do.
  const mutate = (count: number) => sandbox.control.mutate({ count, kinds: ["price", "stock", "description", "add", "remove"] })

  beforeAll(async () => {
    sandbox = await startSandbox({ products: 400, seed: 11, apiKey, rpm: 6000, latencyMs: 150, port: 0, controlPort: 0 })
    db = await createTestDatabase("two-instances")
    const env = { CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`, CATALOG_BASE_URL: "", CATALOG_API_KEY: "" }
    // One after the other: both boot the same plugin and migrations check.
    a = await startMedusaApp({ databaseUrl: db.url, label: "instance-a", env })
    b = await startMedusaApp({ databaseUrl: db.url, label: "instance-b", env })
    // A third, HTTP-only instance: it enqueues but never runs a sync.
    server = await startMedusaApp({ databaseUrl: db.url, label: "instance-server", env, workerMode: "server" })
  })

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), server?.stop()])
    await db?.drop()
    await sandbox?.close()
  })

  it("a request on the other instance returns the running run", async () => {
    const { run } = await configure(a, { base_url: sandbox.baseUrl, api_key: apiKey, markup_percent: "30" })
    const fromB = await b.admin("/admin/catalog-sync/runs", { body: { mode: "full" } })
    expect(fromB.status).toBe(202)
    expect(fromB.body).toMatchObject({ already_running: true, run: { id: run.id } })
    expect((await waitForRun(b, run.id)).status).toBe("succeeded")
  })

  it("simultaneous requests on both instances start one run", async () => {
    for (let i = 0; i < 3; i++) {
      mutate(20)
      const [ra, rb] = await Promise.all([
        a.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } }),
        b.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } }),
      ])
      expect(ra.status).toBe(202)
      expect(rb.status).toBe(202)
      expect(ra.body.run.id).toBe(rb.body.run.id)
      expect([ra.body.already_running, rb.body.already_running].sort()).toEqual([false, true])
      expect((await waitForRun(a, ra.body.run.id)).status).toBe("succeeded")
    }
  })

  it("a server-mode instance enqueues runs but runs none", async () => {
    const res = await server.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(res.status).toBe(202)
    expect((await waitForRun(server, res.body.run.id)).status).toBe("succeeded")
    expect(server.logs()).not.toContain("catalog sync: worker started")
    expect(server.logs()).not.toMatch(/catalog sync: run csrun_\w+ .* started in process/)
  })

  it("runs never overlap in time, whichever instance takes them", async () => {
    // Manual runs on A while B changes the cost basis: a price_calculation change queues a full resync even
    // behind an active run, so several runs wait in the queue at once for either worker.
    const before = Number((await sql(db.url, "select count(*)::int as n from mcs_sync_run"))[0].n)
    const requested = new Set<string>()
    for (let i = 0; i < 6; i++) {
      mutate(10)
      if (i % 2 === 0) {
        const res = await a.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
        expect(res.status).toBe(202)
        requested.add(res.body.run.id)
      } else {
        // A new cost basis each time (the first sync asked with max): min, avg, max.
        const res = await configure(b, { price_calculation: ["min", "avg", "max"][(i - 1) / 2] })
        expect(res.pricing_changed).toBe(true)
        requested.add(res.run.id)
      }
      await new Promise((r) => setTimeout(r, 200))
    }
    for (const id of requested) await waitForRun(a, id)

    const runs = await sql(db.url, "select id, status, started_at, finished_at from mcs_sync_run where started_at is not null order by started_at")
    // At least a manual run and a full resync queued behind it (later requests reuse them).
    expect(requested.size).toBeGreaterThanOrEqual(2)
    expect(runs.length - before).toBe(requested.size)
    for (const run of runs) expect(run.status).toBe("succeeded")
    for (let i = 1; i < runs.length; i++) {
      expect(new Date(runs[i].started_at).getTime()).toBeGreaterThanOrEqual(new Date(runs[i - 1].finished_at).getTime())
    }
    // Which process ran what (both have a worker; BullMQ hands each job to one of them).
    const ranOn = (app: MedusaApp) => (app.logs().match(/catalog sync: run csrun_\w+ .* started in process/g) ?? []).length
    console.log(`runs: ${runs.length}; taken by instance A ${ranOn(a)}, instance B ${ranOn(b)}`)
    expect(ranOn(a) + ranOn(b)).toBe(runs.length)
  })
})
