// The engine shares the shop with other products and must never stall on one product:
// - a product of another import whose external_id equals a catalog id is left alone;
// - a card that cannot be written (its variant SKU taken by another product) is rejected
//   on its own, the rest of the page is written and the cursor moves;
// - two cards that would have produced the same variant SKU ("A-1" + "2", "A" + "1-2") both get written.
import { compareShop, configureAndWait, readCatalog, readShop, runAndWait, startCatalogProxy, startEngineEnv, type EngineEnv } from "./engine-helpers"
import { sql } from "./platform-helpers"
import { distinctSizes, variantSku } from "../../src/sync/map-card"
import type { ProductCard } from "../../src/catalog-client"

jest.setTimeout(900_000)

const PRODUCTS = 40

describe("sync engine: other products in the shop, products that cannot be written", () => {
  let env: EngineEnv
  let proxy: Awaited<ReturnType<typeof startCatalogProxy>>
  let cards: ProductCard[]
  let firstRun: any
  let foreignSameExternalId: string
  let foreignTakenSku: string

  const createForeign = async (title: string, externalId: string | null, sku: string) => {
    const res = await env.app.admin("/admin/products", {
      body: {
        title,
        status: "published",
        ...(externalId ? { external_id: externalId } : {}),
        options: [{ title: "Colour", values: ["Red"] }],
        variants: [{ title: "Red", sku, options: { Colour: "Red" }, manage_inventory: false, prices: [{ currency_code: "usd", amount: 10 }] }],
      },
    })
    if (res.status !== 200) throw new Error(`create product: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.product.id as string
  }

  beforeAll(async () => {
    env = await startEngineEnv("engine-foreign", { products: PRODUCTS, seed: 47 })
    proxy = await startCatalogProxy(env.sb.baseUrl)
    cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    expect(cards).toHaveLength(PRODUCTS)
    // Before the first sync: another import's product with the catalog id of cards[0] as its
    // external_id, and a product holding the SKU the engine will give cards[1]'s first variant.
    foreignSameExternalId = await createForeign("Imported elsewhere", cards[0].id, "OTHER-IMPORT-1")
    const sizes = distinctSizes(cards[1])
    foreignTakenSku = await createForeign("Holds a SKU", null, variantSku(cards[1], sizes.length ? sizes[0].size.trim() : ""))
    const { run } = await configureAndWait(env, { base_url: proxy.url, api_key: env.sb.apiKey, markup_percent: "30" })
    firstRun = run
  })
  afterAll(async () => {
    await proxy?.close()
    await env?.close()
  })

  const alive = async (id: string) => (await sql(env.db.url, "select id from product where id = $1 and deleted_at is null", [id])).length === 1

  it("leaves another import's product with the same external_id alone, and still creates the catalog product", async () => {
    expect(firstRun).toMatchObject({ status: "succeeded" })
    expect(await alive(foreignSameExternalId)).toBe(true)
    const shop = await readShop(env.db.url)
    expect(shop.get(cards[0].id)?.id).toBeTruthy()
    expect(shop.get(cards[0].id)?.id).not.toBe(foreignSameExternalId)
  })

  it("rejects the one card that cannot be written and writes every other card of the page", async () => {
    expect(firstRun).toMatchObject({ status: "succeeded", created: PRODUCTS - 1, skipped: 1 })
    const run = (await env.app.admin(`/admin/catalog-sync/runs/${firstRun.id}`)).body.run
    expect(run.rejected_items).toEqual([{ id: cards[1].id, reason: expect.stringMatching(/write failed: .*sku/i) }])
    expect(await alive(foreignTakenSku)).toBe(true)
    const shop = await readShop(env.db.url)
    expect(shop.has(cards[1].id)).toBe(false)
    expect(compareShop(cards.filter((c) => c.id !== cards[1].id), shop)).toEqual([])
    // The cursor moved: the next changes run has nothing to write.
    const next = await runAndWait(env, "changes")
    expect(next).toMatchObject({ status: "succeeded", created: 0, updated: 0 })
  })

  it("writes two cards whose SKU and size would have made the same variant SKU", async () => {
    const [a, b] = cards.slice(2).filter((c) => distinctSizes(c).length > 0)
    proxy.hooks.rewriteChanges = (body) => {
      for (const item of body.data) {
        const id = String(item.id)
        if (!item.product) continue
        if (id === a.id) {
          item.product.sku = "COLLIDE"
          item.product.sizes = [{ ...item.product.sizes[0], size: "1-2" }]
        } else if (id === b.id) {
          item.product.sku = "COLLIDE-1"
          item.product.sizes = [{ ...item.product.sizes[0], size: "2" }]
        }
      }
      return body
    }
    const full = await runAndWait(env, "full")
    proxy.hooks.rewriteChanges = undefined
    // cards[1] is still refused (its SKU is still taken); nothing else is.
    expect(full).toMatchObject({ status: "succeeded", skipped: 1, swept: 0, removed: 0 })
    const shop = await readShop(env.db.url)
    expect(shop.get(a.id)?.variants.map((v) => v.sku)).toEqual([`COLLIDE-1-2#${a.id}`])
    expect(shop.get(b.id)?.variants.map((v) => v.sku)).toEqual([`COLLIDE-1-2#${b.id}`])
    const others = cards.filter((c) => ![a.id, b.id, cards[1].id].includes(c.id))
    const problems = compareShop(others, shop).filter((p) => !p.startsWith(`${a.id}:`) && !p.startsWith(`${b.id}:`))
    expect(problems).toEqual([])
  })
})
