// The shop's catalog filter end to end (spawned demo app, real PostgreSQL and Redis, the sandbox
// over loopback): a filter on one category subtree and one brand imports exactly what the
// sandbox's own filtered listing serves; widening adds exactly the newly matching products
// through `/v1/products` listings (no export page served); narrowing removes the rest once the
// admin confirms the safety brake's pause (a discarded narrowing keeps them, full passes too). The
// truth is the sandbox's listing over HTTP and SQL on Medusa's product table.
// Size: CATALOG_FILTER_SPEC_PRODUCTS (default 300).
import { CatalogClient, type ProductCard } from "../../src/catalog-client"
import { sql, waitForRun } from "./poll-and-query"
import { configureAndWait, PRICING, readCatalog, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"
import { configure } from "./poll-and-query"

jest.setTimeout(900_000)

const PRODUCTS = Number(process.env.CATALOG_FILTER_SPEC_PRODUCTS ?? 300)

type Stats = { export_pages: number; by_path: Record<string, number> }

describe("sync: the catalog filter", () => {
  let env: SyncEnv
  let client: CatalogClient
  let category: string
  let brand: string
  let secondBrand: string

  /** The sandbox's own filtered listing: catalog ids it serves for the filter. */
  async function listed(filters: { category_id: string; brand_id: string }): Promise<string[]> {
    const ids: string[] = []
    for await (const page of client.listProducts({ ...filters, limit: 200 })) ids.push(...page.items.map((c) => c.id))
    return ids.sort()
  }
  /** What Medusa's product table holds: catalog ids of the plugin's products that are not deleted. */
  async function shopIds(): Promise<string[]> {
    const rows = await sql(env.db.url, "select external_id from product where deleted_at is null and metadata->>'catalog_sync' = 'true'")
    return rows.map((r) => String(r.external_id)).sort()
  }
  async function stats(): Promise<Stats> {
    return (await fetch(`${env.sb.controlUrl}/stats`)).json()
  }

  beforeAll(async () => {
    env = await startSyncEnv("catalog-filter", { products: PRODUCTS, seed: 13 })
    client = new CatalogClient({
      baseUrl: env.sb.baseUrl,
      apiKey: env.sb.apiKey,
      pricing: PRICING,
      limitCeiling: { requestsPerMinute: 100_000_000, maxConcurrent: 1000 },
    })
    // A category with subcategories, and the two brands with most products in its subtree.
    const cards: ProductCard[] = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    const categories = (await client.getCategories()).data ?? []
    const parents = [...new Set(categories.map((c) => c.parent_id).filter((p): p is string => !!p))]
    const subtreeOf = (root: string) => {
      const out = new Set([root])
      for (let grew = true; grew;) {
        grew = false
        for (const c of categories) if (c.parent_id && out.has(c.parent_id) && !out.has(c.id)) (out.add(c.id), (grew = true))
      }
      return out
    }
    // The parent whose subtree holds a middle share of the catalog (some products in, most out).
    const sized = parents.map((p) => ({ p, n: cards.filter((c) => c.category_id && subtreeOf(p).has(c.category_id)).length }))
    sized.sort((a, b) => Math.abs(a.n - PRODUCTS / 3) - Math.abs(b.n - PRODUCTS / 3))
    category = sized[0].p
    const inSubtree = cards.filter((c) => c.category_id && subtreeOf(category).has(c.category_id))
    const byBrand = new Map<string, number>()
    for (const c of inSubtree) if (c.brand) byBrand.set(c.brand.id, (byBrand.get(c.brand.id) ?? 0) + 1)
    ;[brand, secondBrand] = [...byBrand.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id)
    expect(secondBrand).toBeDefined()
  })
  afterAll(async () => {
    await client?.close()
    await env?.close()
  })

  it("a filter on one category subtree and one brand imports exactly the sandbox's filtered listing", async () => {
    const expected = await listed({ category_id: category, brand_id: brand })
    expect(expected.length).toBeGreaterThan(0)
    const { run } = await configureAndWait(env, {
      base_url: env.sb.baseUrl,
      api_key: env.sb.apiKey,
      markup_percent: "30",
      filter: { include_category_ids: [category], include_brand_ids: [brand] },
    })
    expect([run?.status, run?.error_message]).toEqual(["succeeded", null])
    expect(run).toMatchObject({ status: "succeeded", created: expected.length })
    expect(await shopIds()).toEqual(expected)
  })

  it("an invalid filter is refused naming its field, and the saved one stays", async () => {
    const res = await env.app.admin("/admin/catalog-sync/settings", { body: { filter: { include_brand_ids: ["not an id"] } } })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).toContain("filter.include_brand_ids.0")
    const saved = await env.app.admin("/admin/catalog-sync/settings")
    expect(saved.body.settings.filter).toMatchObject({ include_category_ids: [category], include_brand_ids: [brand] })
  })

  it("widening to a second brand adds exactly its products through filtered listings, with no export", async () => {
    const expected = [...(await listed({ category_id: category, brand_id: brand })), ...(await listed({ category_id: category, brand_id: secondBrand }))].sort()
    const added = expected.length - (await shopIds()).length
    expect(added).toBeGreaterThan(0)
    await configure(env.app, { filter: { include_category_ids: [category], include_brand_ids: [brand, secondBrand] } })
    const before = await stats()
    const run = await runAndWait(env, "changes")
    const after = await stats()
    expect([run.status, run.error_message]).toEqual(["succeeded", null])
    expect(run).toMatchObject({ status: "succeeded", created: added, removed: 0 })
    expect(await shopIds()).toEqual(expected)
    expect(after.export_pages - before.export_pages).toBe(0)
    expect((after.by_path["/v1/products"] ?? 0) - (before.by_path["/v1/products"] ?? 0)).toBeGreaterThan(0)
  })

  it("narrowing back to one brand removes the others, once the admin confirms the safety brake's pause", async () => {
    const expected = await listed({ category_id: category, brand_id: brand })
    const before = await shopIds()
    const gone = before.filter((id) => !expected.includes(id))
    // More than the brake's 20 % of the shop: the narrowing waits for the admin.
    expect(gone.length / before.length).toBeGreaterThan(0.2)
    await configure(env.app, { filter: { include_category_ids: [category], include_brand_ids: [brand] } })
    const started = await env.app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    expect(started.status).toBe(202)
    const paused = await waitForRun(env.app, started.body.run.id, ["paused", "succeeded", "failed", "interrupted"])
    expect(paused).toMatchObject({ status: "paused", removed: 0 })
    expect(paused.brake.reasons.map((r: { code: string }) => r.code)).toEqual(["removals"])
    expect([...paused.brake.removal_ids].sort()).toEqual(gone)
    expect(await shopIds()).toEqual(before)

    const confirmed = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/confirm`, { body: {} })
    expect(confirmed.status).toBe(200)
    const run = await waitForRun(env.app, confirmed.body.continued_by.id)
    expect(run).toMatchObject({ status: "succeeded", created: 0, removed: gone.length })
    expect(await shopIds()).toEqual(expected)
  })

  it("a narrowing the admin discards at the brake keeps the shop; neither the next run nor a full pass proposes it again", async () => {
    const both = { include_category_ids: [category], include_brand_ids: [brand, secondBrand] }
    await configure(env.app, { filter: both })
    expect(await runAndWait(env, "changes")).toMatchObject({ status: "succeeded", removed: 0 })
    const before = await shopIds()
    const kept = await listed({ category_id: category, brand_id: brand })
    await configure(env.app, { filter: { include_category_ids: [category], include_brand_ids: [brand] } })
    const started = await env.app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    const paused = await waitForRun(env.app, started.body.run.id, ["paused", "succeeded", "failed", "interrupted"])
    expect(paused).toMatchObject({ status: "paused", removed: 0 })
    expect([...paused.brake.removal_ids].sort()).toEqual(before.filter((id) => !kept.includes(id)))

    const discarded = await env.app.admin(`/admin/catalog-sync/runs/${paused.id}/discard`, { body: {} })
    expect(discarded.status).toBe(200)
    const continued = await waitForRun(env.app, discarded.body.continued_by.id)
    expect(continued).toMatchObject({ status: "succeeded", removed: 0 })
    expect(await shopIds()).toEqual(before)
    const next = await runAndWait(env, "changes")
    expect(next).toMatchObject({ status: "succeeded", removed: 0 })
    expect(next.brake ?? null).toBeNull()
    // A full pass reads them through the filter as removals: still kept by the admin's say.
    const full = await runAndWait(env, "full")
    expect(full).toMatchObject({ status: "succeeded", removed: 0, swept: 0 })
    expect(full.brake ?? null).toBeNull()
    expect(await shopIds()).toEqual(before)
  })
})
