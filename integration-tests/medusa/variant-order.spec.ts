// A size the catalog adds to a product is listed in size order among the product's variants in
// the store API (/store/products, as served: no client-side sort), on the bulk path: the sandbox
// drops a middle size and the first size, the shop syncs, then the sizes come back (new variants),
// and the store lists every variant in size order with ranks 0..n-1 (SQL). Medusa's store routes
// load variants unordered; the plugin's store middleware (src/api/store/variant-order.ts) asks for
// them by rank, keeping the products' own order and paging.
import { compareSizes } from "../../src/sync/size-order"
import { sql } from "./poll-and-query"
import { configureAndWait, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(900_000)

const PRODUCTS = 30

describe("variant order in the store API after sizes are added", () => {
  let env: SyncEnv
  let key: string
  let regionId: string

  const store = async (path: string) => {
    const res = await fetch(env.app.url + path, { headers: { "x-publishable-api-key": key } })
    expect(res.status).toBe(200)
    return res.json() as Promise<any>
  }

  beforeAll(async () => {
    env = await startSyncEnv("variant-order", { products: PRODUCTS, seed: 19 })
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS })
    ;[{ token: key }] = await sql(env.db.url, "select token from api_key where type = 'publishable' and revoked_at is null order by created_at limit 1")
    ;[{ id: regionId }] = await sql(env.db.url, "select id from region where currency_code = 'uah' and deleted_at is null")
  })
  afterAll(async () => {
    await env?.close()
  })

  it("new sizes are listed in size order among the variants, as the store API serves them", async () => {
    const product = env.sb.state.catalog.liveProducts().find((p) => p.sizes.length >= 4 && p.suppliers.every((s) => s.baseCost !== null))!
    expect(product).toBeDefined()
    const all = [...product.sizes].sort(compareSizes)
    const [{ product_id: productId }] = await sql(env.db.url, "select product_id from mcs_product_map where catalog_id = $1 and deleted_at is null", [
      product.idText,
    ])
    const listed = async () =>
      (await store(`/store/products?id=${productId}&region_id=${regionId}&fields=id,*variants,+variants.variant_rank`)).products[0].variants.map(
        (v: any) => v.title as string
      )

    // The first and a middle size leave, then come back as new variants.
    const without = all.filter((_, i) => i !== 0 && i !== 2)
    env.sb.state.mutator.setSizes(product.idText, without)
    expect(await runAndWait(env, "changes")).toMatchObject({ status: "succeeded" })
    expect(await listed()).toEqual(without)
    env.sb.state.mutator.setSizes(product.idText, all)
    expect(await runAndWait(env, "changes")).toMatchObject({ status: "succeeded" })

    const ranks = await sql(env.db.url, "select title, variant_rank from product_variant where product_id = $1 and deleted_at is null order by variant_rank", [
      productId,
    ])
    expect(ranks).toEqual(all.map((title, i) => ({ title, variant_rank: i })))
    expect(await listed()).toEqual(all)
    expect((await store(`/store/products/${productId}?region_id=${regionId}&fields=id,*variants`)).product.variants.map((v: any) => v.title)).toEqual(all)

    // The list keeps Medusa's own product order (id), each product once, in pages, every product's variants by rank.
    const ids = (await sql(env.db.url, "select id from product where deleted_at is null and status = 'published' order by id")).map((r) => r.id as string)
    const pages = [
      await store(`/store/products?limit=7&offset=0&fields=id,*variants,+variants.variant_rank`),
      await store(`/store/products?limit=7&offset=7&fields=id,*variants,+variants.variant_rank`),
    ]
    expect(pages.flatMap((p) => p.products.map((x: any) => x.id))).toEqual(ids.slice(0, 14))
    expect(pages[0].count).toBe(ids.length)
    for (const p of pages.flatMap((page) => page.products)) {
      const ranks = p.variants.map((v: any) => v.variant_rank)
      expect(ranks).toEqual([...ranks].sort((a: number, b: number) => a - b))
    }
  })
})
