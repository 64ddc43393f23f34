// The removal brake judges before it removes, in a real Medusa app: the sandbox takes 30 % of
// the shop's products off sale in three groups with new products between them, so the changes
// feed carries the removals on three pages. The run writes its pages (the new products are
// created) but holds every removal in the plugin's table until it has read its last page, then
// judges them together and pauses: Medusa's product table (SQL) shows none removed. Discard
// removes none of them through the continuing run, the next run and a full pass (its sweep);
// confirm removes exactly the previewed products. A SIGKILL between judging (under the
// threshold) and applying loses no held removal and applies none twice.
import { sql, waitFor, waitForRun } from "./poll-and-query"
import { configureAndWait, readCatalog, runAndWait, startSyncEnv, syncState, type SyncEnv } from "./sync-helpers"

jest.setTimeout(1_800_000)

const PRODUCTS = 150
/** Items a changes page holds (the plugin asks for 200; the API serves no more). */
const CHANGES_PAGE_SIZE = 200
/** How long a run waits between judging its held removals and applying them (the crash test kills it there). */
const HELD_APPLY_DELAY_MS = 20_000

async function liveCatalogIds(dbUrl: string): Promise<string[]> {
  const rows = await sql(dbUrl, "select external_id from product where deleted_at is null and metadata->>'catalog_sync' = 'true'")
  return rows.map((r) => r.external_id as string).sort()
}

async function productsByCatalogId(dbUrl: string): Promise<Map<string, { id: string; title: string }>> {
  const rows = await sql(dbUrl, "select id, external_id, title from product where deleted_at is null and metadata->>'catalog_sync' = 'true'")
  return new Map(rows.map((r) => [r.external_id as string, { id: r.id as string, title: r.title as string }]))
}

async function heldRows(dbUrl: string, where: string, params: unknown[] = []): Promise<string[]> {
  const rows = await sql(dbUrl, `select catalog_id from mcs_held_removal where deleted_at is null and ${where} order by catalog_id`, params)
  return rows.map((r) => r.catalog_id as string)
}

const sorted = (ids: Iterable<string>) => [...ids].sort()

describe("removal brake: a run's removals are held until its last page, judged together, applied only then", () => {
  let env: SyncEnv
  const requests = () => (env.sb.control.stats() as { requests: number }).requests

  beforeAll(async () => {
    env = await startSyncEnv("removal-hold", { products: PRODUCTS, seed: 47 }, { CATALOG_SYNC_TEST_HELD_APPLY_DELAY_MS: String(HELD_APPLY_DELAY_MS) })
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS })
  })
  afterAll(async () => {
    await env?.close()
  })

  /**
   * Takes `victims` off sale in three groups with `between` new products after each of the first
   * two, so the feed's removals fall on three pages; returns the new products' ids.
   */
  function removeAcrossThreePages(victims: string[], between: number): string[] {
    const third = Math.ceil(victims.length / 3)
    const groups = [victims.slice(0, third), victims.slice(third, 2 * third), victims.slice(2 * third)]
    const added: string[] = []
    groups.forEach((group, i) => {
      env.sb.control.mutate({ remove_ids: group })
      if (i < 2) added.push(...(env.sb.control.mutate({ count: between, kinds: ["add"] }) as { added: bigint[] }).added.map(String))
    })
    // The feed's order: group 1, `between` adds, group 2, `between` adds, group 3; so each group
    // starts on a later page than the one before it.
    const firstOf = (g: number) => groups.slice(0, g).reduce((n, x) => n + x.length, 0) + g * between
    expect(Math.floor(firstOf(1) / CHANGES_PAGE_SIZE)).toBeGreaterThanOrEqual(1)
    expect(Math.floor(firstOf(2) / CHANGES_PAGE_SIZE)).toBeGreaterThanOrEqual(2)
    return added
  }

  async function startChangesRun() {
    const started = await env.app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(started.status).toBe(202)
    return waitForRun(env.app, started.body.run.id, ["paused", "succeeded", "failed", "interrupted"], 600_000)
  }

  /** The checks every pause over the held removals must pass: nothing removed (SQL), an exact and named preview. */
  async function expectHeldPause(paused: any, shopBefore: string[], added: string[], victims: string[], stillSold = shopBefore.length) {
    expect(paused).toMatchObject({ status: "paused", removed: 0, swept: 0, created: added.length })
    expect(paused.pages).toBeGreaterThanOrEqual(3)
    expect(paused.brake.reasons.map((r: { code: string }) => r.code)).toEqual(["removals"])
    // Nothing removed in Medusa: every product the shop had is live, and the new ones too.
    expect(await liveCatalogIds(env.db.url)).toEqual(sorted([...shopBefore, ...added]))
    // Held in the plugin's table, exactly the victims, listed by this pause.
    expect(await heldRows(env.db.url, "status = 'held' and paused_run_id = $1", [paused.id])).toEqual(sorted(victims))
    expect(await heldRows(env.db.url, "status in ('held', 'approved') and (paused_run_id is null or paused_run_id <> $1)", [paused.id])).toEqual([])
    // The preview's counts are exact (the share is of the products the catalog still sold: kept ones
    // are not its); its sample names the products as Medusa holds them, with their ids for the link.
    expect(paused.brake.preview.removals).toMatchObject({ count: victims.length, share_percent: ((victims.length / stillSold) * 100).toFixed(2) })
    expect(sorted(paused.brake.removal_ids)).toEqual(sorted(victims))
    expect(paused.brake.held).toEqual({ feed: victims.length, sweep: 0, filter: 0 })
    const products = await productsByCatalogId(env.db.url)
    expect(paused.brake.preview.removals.sample).toHaveLength(20)
    for (const r of paused.brake.preview.removals.sample) {
      expect(victims).toContain(r.catalog_id)
      expect({ title: r.title, product_id: r.product_id }).toEqual({ title: products.get(r.catalog_id)!.title, product_id: products.get(r.catalog_id)!.id })
    }
    // While paused the run asks nothing of the API.
    const before = requests()
    await new Promise((r) => setTimeout(r, 2_000))
    expect(requests()).toBe(before)
  }

  it("30 % removed across three pages: nothing removed while paused; discard removes nothing through the next run and a full pass", async () => {
    const shop = await liveCatalogIds(env.db.url)
    const victims = shop.slice(0, Math.round(shop.length * 0.3))
    const added = removeAcrossThreePages(victims, 190)
    const paused = await startChangesRun()
    await expectHeldPause(paused, shop, added, victims)

    const discarded = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/discard`, { body: {} })
    expect(discarded.status).toBe(200)
    const continued = await waitForRun(env.app, discarded.body.continued_by.id, undefined, 600_000)
    expect(continued).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    expect(continued.brake ?? null).toBeNull()
    const kept = sorted([...shop, ...added])
    expect(await liveCatalogIds(env.db.url)).toEqual(kept)
    // Recorded as discarded; none pending.
    expect(await heldRows(env.db.url, "status = 'discarded' and paused_run_id = $1", [paused.id])).toEqual(sorted(victims))
    expect(await heldRows(env.db.url, "status in ('held', 'approved')")).toEqual([])
    // The cursor moved past them: the next run reads no removal again, and a full pass does not sweep them.
    expect(await runAndWait(env, "changes", 600_000)).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    const full = await runAndWait(env, "full", 600_000)
    expect(full).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    expect(full.brake ?? null).toBeNull()
    expect(await liveCatalogIds(env.db.url)).toEqual(kept)
    expect(await heldRows(env.db.url, "status in ('held', 'approved')")).toEqual([])
    // The catalog no longer serves them: the shop keeps them by the admin's say.
    const served = new Set((await readCatalog(env.sb.baseUrl, env.sb.apiKey)).map((c) => c.id))
    for (const id of victims) expect(served.has(id)).toBe(false)
  })

  it("30 % removed across three pages: confirm removes exactly the preview", async () => {
    // Products the catalog still serves (the discarded ones stay in the shop but are not served).
    const served = new Set((await readCatalog(env.sb.baseUrl, env.sb.apiKey)).map((c) => c.id))
    const shop = await liveCatalogIds(env.db.url)
    const victims = shop.filter((id) => served.has(id)).slice(-Math.round(shop.length * 0.3))
    const added = removeAcrossThreePages(victims, 150)
    const paused = await startChangesRun()
    await expectHeldPause(paused, shop, added, victims, shop.filter((id) => served.has(id)).length)

    const confirmed = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/confirm`, { body: {} })
    expect(confirmed.status).toBe(200)
    const continued = await waitForRun(env.app, confirmed.body.continued_by.id, undefined, 600_000)
    expect(continued).toMatchObject({ status: "succeeded", removed: victims.length, swept: 0 })
    expect(await liveCatalogIds(env.db.url)).toEqual(sorted([...shop, ...added].filter((id) => !victims.includes(id))))
    expect(await heldRows(env.db.url, "status = 'applied' and paused_run_id = $1", [paused.id])).toEqual(sorted(victims))
    expect(await heldRows(env.db.url, "status in ('held', 'approved')")).toEqual([])
    expect((await env.app.admin(`/admin/catalog-sync/runs/${paused.id}`)).body.run.brake_resolution).toMatchObject({
      action: "confirmed",
      removals: victims.length,
    })
  })

  it("a SIGKILL between judging the held removals and applying them loses none and applies none twice", async () => {
    const served = new Set((await readCatalog(env.sb.baseUrl, env.sb.apiKey)).map((c) => c.id))
    const shop = await liveCatalogIds(env.db.url)
    // 10 % of the shop: under the brake's threshold, so the run applies them itself.
    const victims = shop.filter((id) => served.has(id)).slice(0, Math.round(shop.length * 0.1))
    const added = removeAcrossThreePages(victims, 190)
    const started = await env.app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(started.status).toBe(202)
    const runId = started.body.run.id
    // The run has read its last page and judged: it waits (the test hook) before applying.
    await waitFor(
      "the run to reach its held removals",
      async () => {
        const res = await env.app.admin(`/admin/catalog-sync/runs/${runId}`)
        return res.body?.run?.progress?.phase === "removing"
      },
      600_000,
      200
    )
    const cursorBefore = (await syncState(env)).cursor
    await env.crashAndRestart()

    // Killed between holding and applying: nothing removed, every removal still held, the cursor past them.
    expect(await liveCatalogIds(env.db.url)).toEqual(sorted([...shop, ...added]))
    expect(await heldRows(env.db.url, "status = 'held'")).toEqual(sorted(victims))
    expect((await syncState(env)).cursor).toBe(cursorBefore)

    // The next run reads nothing new, judges what is held and applies it.
    const next = await runAndWait(env, "changes", 600_000)
    expect(next).toMatchObject({ status: "succeeded" })
    expect(await liveCatalogIds(env.db.url)).toEqual(sorted([...shop, ...added].filter((id) => !victims.includes(id))))
    expect(await heldRows(env.db.url, "status = 'applied' and held_by_run_id = $1", [runId])).toEqual(sorted(victims))
    expect(await heldRows(env.db.url, "status in ('held', 'approved')")).toEqual([])
    // Applied once: one product row per victim (soft-deleted), each map row removed once by one run.
    const rows = await sql(
      env.db.url,
      `select p.external_id, count(*)::int as n, count(p.deleted_at)::int as deleted, min(m.status) as status, count(distinct m.last_run_id)::int as runs
         from product p join mcs_product_map m on m.catalog_id = p.external_id and m.deleted_at is null
        where p.external_id = any($1) group by p.external_id order by 1`,
      [victims]
    )
    expect(rows).toEqual(sorted(victims).map((id) => ({ external_id: id, n: 1, deleted: 1, status: "removed", runs: 1 })))
  })
})
