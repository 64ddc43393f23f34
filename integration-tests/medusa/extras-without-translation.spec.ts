// Catalog extras (categories, brands, translations, sale prices) without Medusa's translation module (DISABLE_TRANSLATION=true in the demo)
// and with Russian as the shop's primary language: titles, descriptions and category names
// are Russian, the Ukrainian texts live in metadata, and nothing is written to translations.
import { randomUUID } from "node:crypto"
import Decimal from "decimal.js"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import { configure, sql, waitForRun } from "./poll-and-query"
import { readCatalog, type CatalogView } from "./extras-helpers"

jest.setTimeout(300_000)

const PRICING = { markup_percent: "25", old_price_markup_percent: "60" }

describe("catalog extras (no translation module, Russian primary)", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: MedusaApp
  let sandbox: Sandbox
  let catalog: CatalogView
  const apiKey = `k-${randomUUID()}`

  beforeAll(async () => {
    sandbox = await startSandbox({ products: 20, seed: 3, apiKey, rpm: 6000, concurrency: 10, port: 0, controlPort: 0 })
    db = await createTestDatabase("extras-no-translation")
    app = await startMedusaApp({
      databaseUrl: db.url,
      label: "extras-no-translation",
      env: { DISABLE_TRANSLATION: "true", CATALOG_SYNC_REDIS_PREFIX: `mcs-fid-${randomUUID()}`, CATALOG_BASE_URL: "", CATALOG_API_KEY: "" },
    })
    const saved = await configure(app, { base_url: sandbox.baseUrl, api_key: apiKey, ...PRICING, primary_language: "ru" })
    const done = await waitForRun(app, saved.run.id)
    if (done.status !== "succeeded") throw new Error(`first run ${done.status}: ${done.error_code} ${done.error_message}`)
    catalog = await readCatalog(sandbox.baseUrl, apiKey, PRICING)
  })

  afterAll(async () => {
    await app?.stop()
    await db?.drop()
    await sandbox?.close()
  })

  it("fills title, description and material in Russian and keeps Ukrainian in metadata", async () => {
    const card = catalog.cards.find((c) => c.name_uk && c.description_uk)!
    const { body } = await app.admin(`/admin/products?external_id=${card.id}&fields=${encodeURIComponent("id,title,description,material,+metadata")}`)
    const product = body.products[0]
    expect(product.title).toBe(card.name_ru)
    expect(product.description).toBe(card.description_ru)
    expect(product.material).toBe(card.material_ru)
    expect(product.metadata.translations).toEqual({
      uk: { title: card.name_uk, description: card.description_uk, material: card.material_uk },
    })
    // A locale changes nothing without the module: the store serves the primary language.
    const store = await app.store(`/store/products/${product.id}?locale=uk-UA`)
    expect(store.status).toBe(200)
    expect(store.body.product.title).toBe(card.name_ru)
    expect(store.body.product.metadata?.translations?.uk?.title ?? card.name_uk).toBe(card.name_uk)
  })

  it("names categories in Russian and keeps the Ukrainian name in metadata", async () => {
    const res = await app.admin(`/admin/product-categories?limit=1000&fields=${encodeURIComponent("id,name,external_id,metadata")}`)
    const byExternal = new Map<string, any>(res.body.product_categories.map((c: any) => [c.external_id, c]))
    for (const c of catalog.categories) {
      const m = byExternal.get(c.id)
      expect(m.name).toBe(c.name_ru)
      expect(m.metadata.translations.uk.name).toBe(c.name_uk)
    }
  })

  it("links products to their brand", async () => {
    const card = catalog.cards.find((c) => c.brand)!
    const { body } = await app.admin(`/admin/products?external_id=${card.id}&fields=${encodeURIComponent("id,+catalog_brand.*")}`)
    expect(body.products[0].catalog_brand).toMatchObject({ catalog_id: card.brand!.id, name: card.brand!.name })
  })

  it("writes no translation rows and needs no store locales", async () => {
    const rows = await sql(db.url, "select count(*)::int as n from translation where deleted_at is null").catch(() => [{ n: 0 }])
    expect(rows[0].n).toBe(0)
  })

  it("still crosses out prices from old_price_markup_percent", async () => {
    // The first run's setup made the UAH region (spec change: the test used to create it).
    const regions = await app.admin("/admin/regions?currency_code=uah&fields=id")
    const region = { body: { region: regions.body.regions[0] } }
    const card = catalog.cards.find((c) => c.sizes.length > 0 && c.sizes.some((s) => s.price) && c.cost_price !== null)!
    const { body } = await app.admin(`/admin/products?external_id=${card.id}&fields=id`)
    const res = await app.store(
      `/store/products/${body.products[0].id}?region_id=${region.body.region.id}&fields=${encodeURIComponent("*variants.calculated_price,+variants.metadata")}`
    )
    for (const s of card.sizes.filter((x) => x.price)) {
      const v = res.body.product.variants.find((x: any) => x.metadata.catalog_size === s.size.trim())
      expect(new Decimal(String(v.calculated_price.calculated_amount)).equals(new Decimal(s.price!))).toBe(true)
      expect(new Decimal(String(v.calculated_price.original_amount)).equals(new Decimal(s.old_price!))).toBe(true)
    }
  })

  it("backfills translations from metadata when the app later runs with the module", async () => {
    await app.stop()
    app = await startMedusaApp({
      databaseUrl: db.url,
      label: "extras-no-translation-2",
      env: { CATALOG_SYNC_REDIS_PREFIX: `mcs-fid-${randomUUID()}`, CATALOG_BASE_URL: "", CATALOG_API_KEY: "" },
    })
    const res = await app.admin("/admin/catalog-sync/runs", { body: { mode: "changes" } })
    const done = await waitForRun(app, res.body.run.id)
    expect(done.status).toBe("succeeded")
    const rows = await sql(
      db.url,
      "select locale_code, count(*)::int as n from translation where reference = 'product' and deleted_at is null group by locale_code"
    )
    expect(rows).toEqual([{ locale_code: "uk-UA", n: catalog.cards.length }])
    const categories = await sql(
      db.url,
      "select count(*)::int as n from translation where reference = 'product_category' and locale_code = 'uk-UA' and deleted_at is null"
    )
    expect(categories[0].n).toBe(catalog.categories.filter((c) => c.name_uk).length)
    const card = catalog.cards.find((c) => c.name_uk && c.name_uk !== c.name_ru)!
    const { body } = await app.admin(`/admin/products?external_id=${card.id}&fields=id`)
    const uk = await app.store(`/store/products/${body.products[0].id}?locale=uk-UA`)
    expect(uk.body.product.title).toBe(card.name_uk)
    expect(uk.body.product.description).toBe(card.description_uk)
  })
})
