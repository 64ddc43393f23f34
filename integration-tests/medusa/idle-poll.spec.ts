// Quiet on the API when nothing changes (issue 14): after a first sync, a changes run with
// nothing changed costs exactly one counted request at the sandbox's counters (the changes
// page: no /v1/me, no reference revalidation); a page carrying a product of a brand-new
// category fetches the reference lists at once and the product lands in that category; once
// the reference interval has passed, the lists are revalidated again (304s).
//
// How requests are counted: the sandbox's `requests` counts every API request it answered,
// 304s included; `not_modified` counts the 304s among them. The API's daily quota does not
// count 304s (spec section 8), so "counted" = requests − not_modified. Image downloads are
// public CDN-like files, never API requests; they are left out too (an idle run fetches none).
import { sql } from "./poll-and-query"
import { configureAndWait, runAndWait, startSyncEnv, syncState, type SyncEnv } from "./sync-helpers"

jest.setTimeout(900_000)

type Counters = { requests: number; not_modified: number; images: number }

describe("idle poll: one counted request when nothing changed", () => {
  let env: SyncEnv
  const counters = () => env.sb.control.stats() as Counters
  /** What a run cost at the sandbox: every request, the 304s among them, and the counted ones. */
  async function measured<T>(work: () => Promise<T>) {
    const before = counters()
    const result = await work()
    const after = counters()
    const requests = after.requests - before.requests - (after.images - before.images)
    const notModified = after.not_modified - before.not_modified
    return { result, requests, notModified, counted: requests - notModified }
  }

  beforeAll(async () => {
    env = await startSyncEnv("idle-poll", { products: 120, seed: 14 })
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ status: "succeeded", created: 120 })
  })
  afterAll(async () => {
    await env?.close()
  })

  it("a changes run with nothing changed makes exactly one request: the changes page", async () => {
    for (let i = 0; i < 2; i++) {
      const { result: run, requests, notModified, counted } = await measured(() => runAndWait(env, "changes"))
      expect(run).toMatchObject({ status: "succeeded", created: 0, updated: 0, stock_only: 0, removed: 0 })
      // Not one /v1/me and not one 304: the single request of any kind is the changes page.
      expect({ requests, notModified, counted }).toEqual({ requests: 1, notModified: 0, counted: 1 })
    }
  })

  it("a page with a product of a brand-new category fetches the lists at once; the product lands in it", async () => {
    const target = env.sb.state.catalog.liveProducts()[5].idText
    const made = env.sb.control.newCategory({ ids: [target], parent_id: 1, name_uk: "Пляжне", name_ru: "Пляжное" }) as {
      category: { id: number }
      moved: string[]
    }
    expect(made.moved).toEqual([target])
    const { result: run, requests, notModified, counted } = await measured(() => runAndWait(env, "changes"))
    expect([run.status, run.error_message]).toEqual(["succeeded", null])
    expect(run.updated).toBe(1)
    // The page, then the three lists: categories changed (200), brands and models did not (304).
    expect({ requests, notModified, counted }).toEqual({ requests: 4, notModified: 2, counted: 2 })

    const rows = await sql(
      env.db.url,
      `select c.external_id, c.parent_category_id, p.external_id as parent_external_id
         from mcs_product_map m
         join product_category_product pc on pc.product_id = m.product_id
         join product_category c on c.id = pc.product_category_id and c.deleted_at is null
         left join product_category p on p.id = c.parent_category_id
        where m.catalog_id = $1 and m.deleted_at is null`,
      [target]
    )
    expect(rows).toEqual([{ external_id: String(made.category.id), parent_category_id: expect.any(String), parent_external_id: "1" }])

    // Known again: the next idle run is back to one request.
    const idle = await measured(() => runAndWait(env, "changes"))
    expect({ requests: idle.requests, counted: idle.counted }).toEqual({ requests: 1, counted: 1 })
  })

  it("once the reference interval has passed, the lists are revalidated (304s, not counted), then quiet again", async () => {
    // The interval passing, without waiting an hour: the stored fetch time is moved back 2 h.
    const state = await syncState(env)
    expect(state.reference_cache.lists_fetched_at).toEqual(expect.any(String))
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString()
    await sql(env.db.url, `update mcs_sync_state set reference_cache = jsonb_set(reference_cache, '{lists_fetched_at}', to_jsonb($1::text)) where id = $2`, [
      twoHoursAgo,
      state.id,
    ])
    const stale = await measured(() => runAndWait(env, "changes"))
    expect(stale.result.status).toBe("succeeded")
    expect({ requests: stale.requests, notModified: stale.notModified, counted: stale.counted }).toEqual({ requests: 4, notModified: 3, counted: 1 })
    expect(Date.parse((await syncState(env)).reference_cache.lists_fetched_at)).toBeGreaterThan(Date.parse(twoHoursAgo) + 3_600_000)

    const idle = await measured(() => runAndWait(env, "changes"))
    expect({ requests: idle.requests, counted: idle.counted }).toEqual({ requests: 1, counted: 1 })
  })

  it("a full run still refreshes everything as before", async () => {
    const full = await measured(() => runAndWait(env, "full"))
    expect(full.result).toMatchObject({ status: "succeeded", unchanged: 120, swept: 0 })
    // Pages of the full export plus the three lists (unchanged: 304s); /v1/me stays within its hour.
    expect(full.notModified).toBe(3)
  })
})
