// The safety brake in a real Medusa app: the sandbox removes 30 % of the catalog; the changes
// run pauses before writing (nothing removed, checked in Medusa's product table) with a preview,
// makes no API request while paused, and waits for the admin. Confirming applies exactly the
// previewed removals and records the admin's user id; discarding keeps the shop, and neither the
// next changes run nor a full pass (its sweep) proposes the same removals again.
// Size: SAFETY_BRAKE_PRODUCTS (default 150; 30 % of it fits on one page of changes).
import { sql, waitForRun } from "./platform-helpers"
import { configureAndWait, readCatalog, runAndWait, startEngineEnv, type EngineEnv } from "./sync-helpers"

jest.setTimeout(1_200_000)

const PRODUCTS = Number(process.env.SAFETY_BRAKE_PRODUCTS ?? 150)

async function liveCatalogIds(dbUrl: string): Promise<string[]> {
  const rows = await sql(dbUrl, "select external_id from product where deleted_at is null and metadata->>'catalog_sync' = 'true'")
  return rows.map((r) => r.external_id as string).sort()
}

describe("safety brake: a feed that removes 30 % of the shop pauses for the admin", () => {
  let env: EngineEnv
  let all: string[]
  const requests = () => (env.sb.control.stats() as { requests: number }).requests

  async function startPausedRun(removeIds: string[]) {
    env.sb.control.mutate({ remove_ids: removeIds })
    const started = await env.app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(started.status).toBe(202)
    return waitForRun(env.app, started.body.run.id, ["paused", "succeeded", "failed", "interrupted"], 300_000)
  }

  beforeAll(async () => {
    env = await startEngineEnv("safety-brake", { products: PRODUCTS, seed: 31 })
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS })
    all = await liveCatalogIds(env.db.url)
    expect(all).toHaveLength(PRODUCTS)
  })
  afterAll(async () => {
    await env?.close()
  })

  it("pauses with a preview, removes nothing and asks nothing of the API while paused; confirm applies it exactly", async () => {
    const victims = all.slice(0, Math.round(PRODUCTS * 0.3))
    const paused = await startPausedRun(victims)
    expect(paused).toMatchObject({ status: "paused", removed: 0 })
    expect(paused.brake.reasons.map((r: { code: string }) => r.code)).toEqual(["removals"])
    expect(paused.brake.preview.removals).toMatchObject({ count: victims.length, share_percent: (victims.length / PRODUCTS * 100).toFixed(2) })
    expect(paused.brake.preview.removals.sample.length).toBe(Math.min(20, victims.length))
    expect([...paused.brake.removal_ids].sort()).toEqual(victims)
    expect(await liveCatalogIds(env.db.url)).toEqual(all)

    // While paused: "Sync now" answers with the paused run, starts nothing, asks the API nothing.
    const before = requests()
    const again = await env.app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(again.body).toMatchObject({ already_running: true, run: { id: paused.id, status: "paused" } })
    const status = await env.app.admin("/admin/catalog-sync/status")
    expect(status.body).toMatchObject({ state: "paused", paused: { run_id: paused.id, brake: { preview: { removals: { count: victims.length } } } } })
    await new Promise((r) => setTimeout(r, 2_000))
    expect(requests()).toBe(before)

    const me = await env.app.admin("/admin/users/me")
    const confirmed = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/confirm`, { body: {} })
    expect(confirmed.status).toBe(200)
    const continued = await waitForRun(env.app, confirmed.body.continued_by.id, undefined, 300_000)
    expect(continued).toMatchObject({ status: "succeeded", removed: victims.length })
    expect(await liveCatalogIds(env.db.url)).toEqual(all.filter((id) => !victims.includes(id)))
    const history = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}`)
    expect(history.body.run).toMatchObject({ status: "paused", brake_resolution: { action: "confirmed", user_id: me.body.user.id, removals: victims.length } })
    // Answered once only.
    expect((await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/confirm`, { body: {} })).status).toBe(409)
  })

  it("discard keeps the shop; the next run and a full pass do not propose the same removals again", async () => {
    const shop = await liveCatalogIds(env.db.url)
    const victims = shop.slice(0, Math.ceil(shop.length * 0.3))
    const paused = await startPausedRun(victims)
    expect(paused).toMatchObject({ status: "paused", removed: 0 })
    const discarded = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/discard`, { body: {} })
    expect(discarded.status).toBe(200)
    const continued = await waitForRun(env.app, discarded.body.continued_by.id, undefined, 300_000)
    expect(continued).toMatchObject({ status: "succeeded", removed: 0 })
    expect(await liveCatalogIds(env.db.url)).toEqual(shop)

    const next = await runAndWait(env, "changes")
    expect(next).toMatchObject({ status: "succeeded", removed: 0 })
    const full = await runAndWait(env, "full")
    expect(full).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    expect(await liveCatalogIds(env.db.url)).toEqual(shop)
    // The catalog no longer serves them; the shop keeps them by the admin's say.
    const served = new Set((await readCatalog(env.sb.baseUrl, env.sb.apiKey)).map((c) => c.id))
    for (const id of victims) expect(served.has(id)).toBe(false)
  })
})
