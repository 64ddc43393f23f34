// The engine shares the shop with other products: a product of another import whose
// external_id equals a catalog id is left alone.
import { configureAndWait, readCatalog, readShop, startCatalogProxy, startEngineEnv, type EngineEnv } from "./engine-helpers"
import { sql } from "./platform-helpers"
import type { ProductCard } from "../../src/catalog-client"

jest.setTimeout(900_000)

const PRODUCTS = 40

describe("sync engine: other products in the shop", () => {
  let env: EngineEnv
  let proxy: Awaited<ReturnType<typeof startCatalogProxy>>
  let cards: ProductCard[]
  let firstRun: any
  let foreignSameExternalId: string

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
    // Before the first sync: another import's product with the catalog id of cards[0] as its external_id.
    foreignSameExternalId = await createForeign("Imported elsewhere", cards[0].id, "OTHER-IMPORT-1")
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
})
