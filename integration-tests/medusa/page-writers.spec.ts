// Scale-out: a run reads pages in order and keeps several in flight, written by the page
// writers of two app instances (two `medusa start` processes, one database, one Redis). The
// shop must end equal to the catalog (Medusa's tables read with SQL), every product once, no
// product gone backwards while the same products change again during the run; a writer killed
// (SIGKILL) in the middle of a page leaves a shop the next run brings equal to the catalog; and a
// reader killed while the other instance writes its page is resumed there, equal to the catalog;
// the safety brake still judges every page before it is written, pausing in page order.
import { randomUUID } from "node:crypto"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { configure, sql, waitFor, waitForRun } from "./poll-and-query"
import { compareShop, readCatalog, readShop } from "./sync-helpers"

jest.setTimeout(900_000)

const PRODUCTS = 1000

describe("page writers on two instances", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let a: MedusaApp
  let b: MedusaApp
  let sandbox: Sandbox
  const apiKey = `k-${randomUUID()}`
  const env = {
    CATALOG_SYNC_REDIS_PREFIX: `mcs-test-${randomUUID()}`,
    CATALOG_SYNC_SCHEDULE_EVERY_MS: String(24 * 3600_000),
    CATALOG_BASE_URL: "",
    CATALOG_API_KEY: "",
    CATALOG_SYNC_PAGES_IN_FLIGHT: "3",
    CATALOG_SYNC_PAGE_WRITERS: "1",
    // A page job whose writer died is failed after about this long (its run then fails).
    CATALOG_SYNC_JOB_LOCK_MS: "15000",
    // A failed run's retry comes in seconds, inside the test that failed it (see the killed writer).
    CATALOG_SYNC_RETRY_BACKOFF_MS: "1000",
  }

  const shopEqualsCatalog = async () => {
    const cards = await readCatalog(sandbox.baseUrl, apiKey)
    expect(compareShop(cards, await readShop(db.url))).toEqual([])
    const duplicates = await sql(
      db.url,
      "select external_id, count(*)::int as n from product where deleted_at is null group by external_id having count(*) > 1"
    )
    expect(duplicates).toEqual([])
    const skus = await sql(db.url, "select sku, count(*)::int as n from inventory_item where deleted_at is null group by sku having count(*) > 1")
    expect(skus).toEqual([])
    // No product went backwards: every product shows its latest card (compareShop above), and no
    // map row holds a version the catalog never reached. (A card whose fingerprint did not move
    // writes nothing, so its row may keep an older version.)
    const versions = new Map(
      (await sql(db.url, "select catalog_id, sync_version from mcs_product_map where deleted_at is null and status = 'active'")).map((r: any) => [
        String(r.catalog_id),
        Number(r.sync_version),
      ])
    )
    const ahead = cards.filter((c) => (versions.get(c.id) ?? 0) > c.sync_version).map((c) => `${c.id}: ${versions.get(c.id)} > ${c.sync_version}`)
    expect(ahead).toEqual([])
    expect(cards.filter((c) => !versions.has(c.id))).toEqual([])
    return cards
  }
  const writtenBy = (app: MedusaApp, runId: string) => (app.logs().match(new RegExp(`of run ${runId}: written here`, "g")) ?? []).length
  const startRun = async (app: MedusaApp, mode: "changes" | "full") => {
    const request = () => app.admin("/admin/catalog-sync/runs", { body: { mode } })
    let res = await request()
    if (res.body?.already_running) {
      await waitForRun(app, res.body.run.id, undefined, 600_000).catch(async (e) => {
        // Which run was in the way, and what each instance said about the runs.
        const runs = await sql(
          db.url,
          "select id, status, trigger, mode, error_code, created_at, progress->>'phase' as phase from mcs_sync_run order by created_at"
        )
        const said = (x: MedusaApp) =>
          x
            .logs()
            .split("\n")
            .filter((l) => /catalog sync/.test(l))
            .slice(-40)
            .join("\n")
        throw new Error(`${(e as Error).message}\nruns: ${JSON.stringify(runs, null, 1)}\ninstance a:\n${said(a)}\ninstance b:\n${said(b)}`)
      })
      res = await request()
    }
    expect([res.status, res.body.already_running]).toEqual([202, false])
    return res.body.run.id as string
  }
  /** The instance whose worker took the run (it reads the pages). */
  const readerOf = (runId: string) => (a.logs().includes(`run ${runId} (`) ? a : b.logs().includes(`run ${runId} (`) ? b : null)

  beforeAll(async () => {
    // Latency keeps several pages in flight while the next one is read.
    sandbox = await startSandbox({ products: PRODUCTS, seed: 61, apiKey, rpm: 100_000, concurrency: 3, latencyMs: 100, port: 0, controlPort: 0 })
    db = await createTestDatabase("page-writers")
    a = await startMedusaApp({ databaseUrl: db.url, label: "writers-a", env })
    b = await startMedusaApp({ databaseUrl: db.url, label: "writers-b", env })
  })

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await db?.drop()
    await sandbox?.close()
  })

  it("a full sync written by both instances ends equal to the catalog, every product once", async () => {
    const { run } = await configure(a, { base_url: sandbox.baseUrl, api_key: apiKey, markup_percent: "30" })
    const done = await waitForRun(a, run.id, undefined, 600_000)
    expect([done.status, done.error_message]).toEqual(["succeeded", null])
    const cards = await shopEqualsCatalog()
    expect(cards.length).toBeGreaterThan(PRODUCTS * 0.9)
    expect(done.created).toBe(cards.length)
    // Pages went through the queue, and both processes wrote some.
    expect(writtenBy(a, run.id)).toBeGreaterThan(0)
    expect(writtenBy(b, run.id)).toBeGreaterThan(0)
    expect(writtenBy(a, run.id) + writtenBy(b, run.id)).toBe(done.pages)
  })

  it("a changes sync while the same products keep changing: each ends at its latest version", async () => {
    const ids = sandbox.state.catalog
      .liveProducts()
      .slice(0, 300)
      .map((p) => p.idText)
    sandbox.control.mutate({ count: 700, kinds: ["price", "stock", "description"] })
    const runId = await startRun(a, "changes")
    // The same products change again while the run reads its pages: they come back in later pages.
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 400))
      sandbox.control.mutate({ count: 100, kinds: ["price", "stock", "description"], ids: ids.slice(i * 75, i * 75 + 100) })
    }
    const done = await waitForRun(a, runId, undefined, 600_000)
    expect([done.status, done.error_message]).toEqual(["succeeded", null])
    // Changes made after the run's last page are read by the next run.
    const next = await waitForRun(a, await startRun(a, "changes"), undefined, 600_000)
    expect(next.status).toBe("succeeded")
    await shopEqualsCatalog()
  })

  it("a writer killed in the middle of a page: the next run ends equal to the catalog", async () => {
    sandbox.control.mutate({ count: 900, kinds: ["price", "stock", "description", "sizes"] })
    const runId = await startRun(a, "changes")
    const reader = await waitFor("the run's reader", async () => readerOf(runId), 120_000, 20)
    const writer = reader === a ? b : a
    const writing = (app: MedusaApp) => (app.logs().match(new RegExp(`of run ${runId}: writing here`, "g")) ?? []).length
    await waitFor("the other instance in the middle of a page", async () => writing(writer) > writtenBy(writer, runId), 300_000, 10)
    await writer.kill()
    const killed = await waitForRun(reader, runId, undefined, 600_000)
    // The page the killed writer held never commits: the run cannot end as if it did.
    expect([killed.status, killed.error_code]).toEqual(["failed", "page_write_failed"])
    // The failed run is retried with backoff (a failed page write is the system's failure). Its
    // retry runs here, not in a later test: one that fired during the safety brake's test paused on
    // that test's removals and held the run slot, and the brake test waited for it to end.
    const retryId = await waitFor(
      "the failed run's retry",
      async () => reader.logs().match(new RegExp(`retrying manual run ${runId} as (csrun_\\w+)`))?.[1],
      120_000,
      100
    )
    expect((await waitForRun(reader, retryId, undefined, 600_000)).status).toBe("succeeded")
    const next = await waitForRun(reader, await startRun(reader, "changes"), undefined, 600_000)
    expect([next.status, next.error_message]).toEqual(["succeeded", null])
    await shopEqualsCatalog()
    // The killed instance comes back for the next test.
    const restarted = await startMedusaApp({ databaseUrl: db.url, label: "writers-restarted", env })
    if (writer === a) a = restarted
    else b = restarted
  })

  it("the reader killed while the other instance writes its pages: the work resumes there and ends equal to the catalog", async () => {
    sandbox.control.mutate({ count: 900, kinds: ["price", "stock", "description", "sizes"] })
    const runId = await startRun(a, "changes")
    const reader = await waitFor("the run's reader", async () => readerOf(runId), 120_000, 20)
    const survivor = reader === a ? b : a
    const writing = (app: MedusaApp) => (app.logs().match(new RegExp(`of run ${runId}: writing here`, "g")) ?? []).length
    await waitFor("the other instance in the middle of a page", async () => writing(survivor) > writtenBy(survivor, runId), 300_000, 10)
    await reader.kill()
    // The survivor's recovery resumes the pass from the stored cursor, once the page it was
    // writing for the dead run is done (the resumed run waits for it rather than write it twice).
    const resumed = await waitFor(
      "the resumed run's end",
      async () => {
        const rows = await sql(
          db.url,
          "select id, status, trigger from mcs_sync_run where created_at > (select created_at from mcs_sync_run where id = $1) order by created_at",
          [runId]
        )
        return rows.length && rows.every((r: any) => r.status === "succeeded") ? rows : null
      },
      600_000,
      500
    )
    expect(resumed.map((r: any) => r.trigger)).toContain("retry")
    await shopEqualsCatalog()
    // The killed instance comes back for the next test.
    const restarted = await startMedusaApp({ databaseUrl: db.url, label: "writers-restarted-2", env })
    if (reader === a) a = restarted
    else b = restarted
  })

  it("the safety brake judges every page in flight, in page order: the page past the threshold pauses, nothing of it is written", async () => {
    const live = async () =>
      (await sql(db.url, "select external_id from product where deleted_at is null and metadata->>'catalog_sync' = 'true'"))
        .map((r: any) => r.external_id as string)
        .sort()
    const before = await live()
    // Updates first, then removals of 22 % of the shop (the threshold is 20 %): the removals
    // come on the feed's later pages, after pages of updates written in flight.
    sandbox.control.mutate({ count: 600, kinds: ["price", "stock", "description"] })
    sandbox.control.mutate({ remove_ids: before.slice(0, Math.round(before.length * 0.22)) })
    const runId = await startRun(a, "changes")
    const paused = await waitForRun(a, runId, ["paused", "succeeded", "failed", "interrupted"], 600_000)
    expect(paused.status).toBe("paused")
    expect(paused.brake.reasons.map((r: { code: string }) => r.code)).toEqual(["removals"])
    // Nothing of the paused page was removed; only the removals of the pages before it (written,
    // their cursors stored) are gone.
    const held: string[] = paused.brake.removal_ids
    expect(held.length).toBeGreaterThan(0)
    const now = new Set(await live())
    expect(held.filter((id) => !now.has(id))).toEqual([])
    expect(now.size).toBe(before.length - paused.removed)
    expect(paused.pages).toBeGreaterThan(0)
    expect(paused.updated).toBeGreaterThan(0)
    const confirmed = await a.admin(`/admin/catalog-sync/runs/${paused.id}/confirm`, { body: {} })
    expect(confirmed.status).toBe(200)
    const continued = await waitForRun(a, confirmed.body.continued_by.id, undefined, 600_000)
    expect([continued.status, continued.error_message]).toEqual(["succeeded", null])
    await shopEqualsCatalog()
  })
})
