// The sync shares the shop with other products and must never stall on one product:
// - a product of another import whose external_id equals a catalog id is left alone;
// - a card whose plain variant SKU another product holds gets the SKU with its catalog id
//   (spec change: it used to be rejected, when every SKU carried the id);
// - two cards that would produce the same variant SKU ("A-1" + "2", "A" + "1-2") both get
//   written: the smaller catalog id keeps the plain SKU, the other carries its id.
import { compareShop, configureAndWait, readCatalog, readShop, runAndWait, startCatalogProxy, startSyncEnv, type SyncEnv } from "./sync-helpers"
import { sql } from "./poll-and-query"
import { distinctSizes, variantSku } from "../../src/sync/map-card"
import type { ProductCard } from "../../src/catalog-client"

jest.setTimeout(900_000)

const PRODUCTS = 40

describe("sync: other products in the shop, products that cannot be written", () => {
  let env: SyncEnv
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
    env = await startSyncEnv("foreign", { products: PRODUCTS, seed: 47 })
    proxy = await startCatalogProxy(env.sb.baseUrl)
    cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    expect(cards).toHaveLength(PRODUCTS)
    // Before the first sync: another import's product with the catalog id of cards[0] as its
    // external_id, and a product holding the SKU the sync will give cards[1]'s first variant.
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

  it("gives the card whose SKU another product holds its catalog id in that SKU, and writes every card", async () => {
    expect(firstRun).toMatchObject({ status: "succeeded", created: PRODUCTS, skipped: 0 })
    const run = (await env.app.admin(`/admin/catalog-sync/runs/${firstRun.id}`)).body.run
    expect(run.rejected_items).toEqual([])
    expect(await alive(foreignTakenSku)).toBe(true)
    const shop = await readShop(env.db.url)
    const sizes = distinctSizes(cards[1])
    const takenKey = sizes.length ? sizes[0].size.trim() : ""
    const skus = shop.get(cards[1].id)?.variants.map((v) => v.sku) ?? []
    expect(skus).toContain(variantSku(cards[1], takenKey, true))
    expect(skus).not.toContain(variantSku(cards[1], takenKey))
    // Its other sizes keep plain SKUs.
    for (const s of sizes.slice(1)) expect(skus).toContain(variantSku(cards[1], s.size.trim()))
    // Equal to the catalog, except that one SKU (checked above).
    expect(compareShop(cards, shop)).toEqual([`${cards[1].id}: variant ${variantSku(cards[1], takenKey)} missing`])
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
    expect(full).toMatchObject({ status: "succeeded", skipped: 0, swept: 0, removed: 0 })
    const shop = await readShop(env.db.url)
    const [first, second] = [a, b].sort((x, y) => (BigInt(x.id) < BigInt(y.id) ? -1 : 1))
    expect(shop.get(first.id)?.variants.map((v) => v.sku)).toEqual(["COLLIDE-1-2"])
    expect(shop.get(second.id)?.variants.map((v) => v.sku)).toEqual([`COLLIDE-1-2#${second.id}`])
    // Replaying gives every variant the same SKU again.
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
    const again = await runAndWait(env, "full")
    proxy.hooks.rewriteChanges = undefined
    expect(again).toMatchObject({ status: "succeeded", skipped: 0, created: 0, updated: 0 })
    const others = cards.filter((c) => ![a.id, b.id].includes(c.id))
    const problems = compareShop(others, shop).filter((p) => !p.startsWith(`${a.id}:`) && !p.startsWith(`${b.id}:`))
    const sizes = distinctSizes(cards[1])
    expect(problems).toEqual([`${cards[1].id}: variant ${variantSku(cards[1], sizes.length ? sizes[0].size.trim() : "")} missing`])
  })
})
