// A search index sees every change (issue 14): a subscriber in the demo app
// (demo/src/subscribers/record-product-events.ts) records product.created / .updated / .deleted,
// and through real syncs it gets exactly one event per product the catalog added, changed or
// removed, whichever path wrote it (Medusa's workflows or the bulk writer). The truth is the
// sandbox's mutation result, mapped to Medusa product ids by SQL on the product table.
import { sql } from "./poll-and-query"
import { recordingFile } from "./recording-file"
import { configureAndWait, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(900_000)

type Recorded = { name: string; id: string }

describe("product events through a real sync", () => {
  let env: SyncEnv
  const events = recordingFile("product-events")
  /** Recorded events (then forgotten), after the app's event bus has delivered them. */
  async function takeEvents(): Promise<Recorded[]> {
    await new Promise((r) => setTimeout(r, 2_000))
    return events.take<Recorded>()
  }
  const idsOf = (events: Recorded[], name: string) =>
    events
      .filter((e) => e.name === name)
      .map((e) => e.id)
      .sort()
  /** Medusa product ids by catalog id (external_id), deleted products included. */
  async function productIds(catalogIds: string[]): Promise<string[]> {
    const rows = await sql(env.db.url, "select id from product where external_id = any($1)", [catalogIds])
    return rows.map((r) => r.id).sort()
  }

  beforeAll(async () => {
    env = await startSyncEnv("product-events", { products: 30, seed: 41 }, { CATALOG_SYNC_TEST_EVENTS_FILE: events.path })
  })
  afterAll(async () => {
    await env?.close()
  })

  it("a first sync: one product.created per catalog product, nothing else", async () => {
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ status: "succeeded", created: 30 })
    const events = await takeEvents()
    const live = env.sb.state.catalog.liveProducts().map((p) => p.idText)
    const expected = await productIds(live)
    expect(expected).toHaveLength(30)
    expect(idsOf(events, "product.created")).toEqual(expected)
    expect(idsOf(events, "product.deleted")).toEqual([])
  })

  it("a changes sync: one event per product added, changed (fields, stock, price) and removed", async () => {
    const live = env.sb.state.catalog.liveProducts().map((p) => p.idText)
    // One mutation per product: a count over several ids may draw the same product twice.
    const changed = {
      changed: live.slice(0, 3).flatMap((id) => (env.sb.control.mutate({ count: 1, kinds: ["description"], ids: [id] }) as { changed: bigint[] }).changed),
    }
    const removed = env.sb.control.mutate({ remove_ids: live.slice(10, 14) }) as { removed: bigint[] }
    const added = env.sb.control.mutate({ count: 2, kinds: ["add"] }) as { added: bigint[] }
    const text = (ids: bigint[]) => ids.map(String)
    expect([changed.changed.length, removed.removed.length, added.added.length]).toEqual([3, 4, 2])

    const run = await runAndWait(env, "changes")
    expect(run).toMatchObject({ status: "succeeded", created: 2, updated: 3, removed: 4 })
    const events = await takeEvents()
    expect(idsOf(events, "product.created")).toEqual(await productIds(text(added.added)))
    expect(idsOf(events, "product.deleted")).toEqual(await productIds(text(removed.removed)))
    // Updated: the changed products, each once (a new product's own writes do not count).
    expect(idsOf(events, "product.updated")).toEqual(await productIds(text(changed.changed)))
    // The deleted products are soft-deleted in the shop, the others live.
    const gone = await sql(env.db.url, "select count(*)::int as n from product where external_id = any($1) and deleted_at is not null", [text(removed.removed)])
    expect(gone[0].n).toBe(4)
  })
})
