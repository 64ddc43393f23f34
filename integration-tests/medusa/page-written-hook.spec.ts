// The page workflow's extension point, `pageWritten` (docs/contracts.md): a hook in the demo app
// (demo/src/workflows/hooks/record-page-written.ts) records what each page hands it. Through real
// syncs it gets every product the run created or updated, once, with the product and variant ids
// the shop holds (read by SQL on Medusa's tables), and the run's id. The hook changes what it was
// given; the page still commits, and the next page's hook input is unaffected.
import { sql } from "./poll-and-query"
import { recordingFile } from "./recording-file"
import { configureAndWait, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(900_000)

type HookProduct = { catalogId: string; productId: string; variantIds: Record<string, string> }
type HookCall = { runId: string; products: HookProduct[] }

describe("the pageWritten hook through a real sync", () => {
  let env: SyncEnv
  const recorded = recordingFile("page-written")
  const takeCalls = () => recorded.take<HookCall>()
  /** What the shop holds of these catalog products, by SQL: product id and live variant ids by size ("" for a card without sizes). */
  async function shopProducts(catalogIds: string[]): Promise<HookProduct[]> {
    const rows = await sql(
      env.db.url,
      `select p.external_id, p.id as product_id, v.id as variant_id, coalesce(v.metadata->>'catalog_size', '') as size
         from product p join product_variant v on v.product_id = p.id and v.deleted_at is null
        where p.external_id = any($1) and p.deleted_at is null`,
      [catalogIds]
    )
    const out = new Map<string, HookProduct>()
    for (const r of rows) {
      const p: HookProduct = out.get(r.external_id) ?? { catalogId: r.external_id, productId: r.product_id, variantIds: {} }
      p.variantIds[r.size] = r.variant_id
      out.set(r.external_id, p)
    }
    return [...out.values()].sort((a, b) => a.catalogId.localeCompare(b.catalogId))
  }
  /** The hook's products of one run, in catalog id order (a product twice would show twice). */
  function hooked(calls: HookCall[], runId: string): HookProduct[] {
    return calls
      .filter((c) => c.runId === runId)
      .flatMap((c) => c.products)
      .sort((a, b) => a.catalogId.localeCompare(b.catalogId))
  }

  beforeAll(async () => {
    // 250 products: two pages, so the second page's hook runs after the first page's hook changed its input.
    env = await startSyncEnv("page-written-hook", { products: 250, seed: 43 }, { CATALOG_SYNC_TEST_PAGE_WRITTEN_FILE: recorded.path })
  })
  afterAll(async () => {
    await env?.close()
  })

  it("a first sync: each created product once, with the shop's product and variant ids", async () => {
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ status: "succeeded", created: 250 })
    const calls = takeCalls()
    expect(calls.length).toBeGreaterThanOrEqual(2)
    const live = env.sb.state.catalog.liveProducts().map((p) => p.idText)
    expect(hooked(calls, run.id)).toEqual(await shopProducts(live))
    expect(calls.every((c) => c.runId === run.id)).toBe(true)
  })

  it("a changes sync: the created and updated products (fields and prices), not the removed ones", async () => {
    const live = env.sb.state.catalog.liveProducts().map((p) => p.idText)
    const described = live
      .slice(0, 3)
      .flatMap((id) => (env.sb.control.mutate({ count: 1, kinds: ["description"], ids: [id] }) as { changed: bigint[] }).changed)
      .map(String)
    const repriced = live.slice(5, 8)
    env.sb.control.mutate({ scale_ids: repriced, scale_percent: 110 })
    const removed = (env.sb.control.mutate({ remove_ids: live.slice(10, 12) }) as { removed: bigint[] }).removed.map(String)
    const added = (env.sb.control.mutate({ count: 2, kinds: ["add"] }) as { added: bigint[] }).added.map(String)
    expect([described.length, removed.length, added.length]).toEqual([3, 2, 2])

    const run = await runAndWait(env, "changes")
    expect(run).toMatchObject({ status: "succeeded", created: 2, updated: 6, removed: 2 })
    const got = hooked(takeCalls(), run.id)
    expect(got).toEqual(await shopProducts([...described, ...repriced, ...added]))
    for (const id of removed) expect(got.map((p) => p.catalogId)).not.toContain(id)
  })
})
