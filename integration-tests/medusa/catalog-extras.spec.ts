// Catalog extras (categories, brands, translations, sale prices) end to end, with Medusa's translation module enabled (the demo's default):
// a shop built from the sandbox catalog has the category tree (followed through renames,
// moves and removals, fetched with conditional requests), brand links, both languages,
// crossed-out prices per variant, weights and dimensions, and survives size/photo/stock changes.
import { randomUUID } from "node:crypto"
import Decimal from "decimal.js"
import { createTestDatabase, startMedusaApp, type MedusaApp } from "../harness"
import { startSandbox, type Sandbox } from "../../sandbox/server"
import type { Category, ProductCard } from "../../src/catalog-client"
import { configure, sql, waitForRun } from "./poll-and-query"
import { readCatalog, startCatalogProxy, type CatalogProxy, type CatalogView } from "./extras-helpers"

jest.setTimeout(300_000)

const PRICING = { markup_percent: "30", discount_percent: "20" }
const dec = (v: unknown) => new Decimal(String(v))
// These specs change the reference lists behind the plugin's back (a proxy edits the category
// tree) and check each run's conditional requests: every run revalidates the lists, as it did
// before the hourly interval (idle-poll.spec.ts covers the interval).
const EVERY_RUN_REFERENCES = { CATALOG_SYNC_REFERENCE_MAX_AGE_MS: "0" }

describe("catalog extras (translation module enabled)", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>
  let app: MedusaApp
  let sandbox: Sandbox
  let proxy: CatalogProxy
  let catalog: CatalogView
  let regionId: string
  const apiKey = `k-${randomUUID()}`

  const cardsById = () => new Map(catalog.cards.map((c) => [c.id, c]))
  const refreshCatalog = async () => {
    catalog = await readCatalog(sandbox.baseUrl, apiKey, PRICING)
  }
  const run = async (mode: "changes" | "full" = "changes") => {
    const res = await app.admin("/admin/catalog-sync/runs", { body: { mode } })
    expect(res.status).toBe(202)
    const done = await waitForRun(app, res.body.run.id)
    if (done.status !== "succeeded") throw new Error(`run ${done.status}: ${done.error_code} ${done.error_message}\n${app.logs().slice(-3000)}`)
    return done
  }
  /** Medusa product by catalog id, through the admin API. */
  const adminProduct = async (catalogId: string, fields = "") => {
    const res = await app.admin(`/admin/products?external_id=${catalogId}&fields=${encodeURIComponent(`*categories,*variants,*images,+metadata${fields}`)}`)
    expect(res.status).toBe(200)
    return res.body.products[0]
  }

  beforeAll(async () => {
    sandbox = await startSandbox({ products: 40, seed: 7, apiKey, rpm: 6000, concurrency: 10, port: 0, controlPort: 0 })
    proxy = await startCatalogProxy(sandbox.baseUrl)
    db = await createTestDatabase("extras-catalog")
    app = await startMedusaApp({
      databaseUrl: db.url,
      label: "extras-catalog",
      env: { CATALOG_SYNC_REDIS_PREFIX: `mcs-fid-${randomUUID()}`, CATALOG_BASE_URL: "", CATALOG_API_KEY: "", ...EVERY_RUN_REFERENCES },
    })
    const saved = await configure(app, { base_url: proxy.url, api_key: apiKey, ...PRICING, primary_language: "uk" })
    const done = await waitForRun(app, saved.run.id)
    if (done.status !== "succeeded") throw new Error(`first run ${done.status}: ${done.error_code} ${done.error_message}\n${app.logs().slice(-4000)}`)
    await refreshCatalog()
    // The first run's setup made the UAH region (spec change: tests used to create it).
    const regions = await app.admin("/admin/regions?currency_code=uah&fields=id,name")
    expect(regions.body.regions.map((r: any) => r.name)).toEqual(["Україна"])
    regionId = regions.body.regions[0].id
  })

  afterAll(async () => {
    await app?.stop()
    await db?.drop()
    await proxy?.close()
    await sandbox?.close()
  })

  it("builds the category tree with catalog ids, parents and both languages", async () => {
    const res = await app.admin(
      `/admin/product-categories?limit=1000&fields=${encodeURIComponent("id,name,handle,external_id,parent_category_id,is_active,metadata")}`
    )
    const byExternal = new Map<string, any>(res.body.product_categories.map((c: any) => [c.external_id, c]))
    expect(catalog.categories.length).toBeGreaterThan(3)
    for (const c of catalog.categories) {
      const m = byExternal.get(c.id)
      expect(m).toBeDefined()
      expect(m.name).toBe(c.name_uk)
      expect(m.is_active).toBe(true)
      const parent = c.parent_id ? byExternal.get(c.parent_id).id : null
      expect(m.parent_category_id).toBe(parent)
    }
    // The other language through the translation module, served by the store API with a locale.
    const child = catalog.categories.find((c) => c.parent_id !== null && c.name_ru && c.name_ru !== c.name_uk)!
    const id = byExternal.get(child.id).id
    const uk = await app.store(`/store/product-categories/${id}`)
    const ru = await app.store(`/store/product-categories/${id}?locale=ru-RU`)
    expect(uk.body.product_category.name).toBe(child.name_uk)
    expect(ru.body.product_category.name).toBe(child.name_ru)
  })

  it("places every product in its category", async () => {
    const { body } = await app.admin(`/admin/products?limit=200&fields=${encodeURIComponent("id,external_id,*categories")}`)
    expect(body.products.length).toBe(catalog.cards.length)
    const cards = cardsById()
    for (const p of body.products) {
      const card = cards.get(p.external_id)!
      expect(p.categories.map((c: any) => c.external_id)).toEqual(card.category_id ? [card.category_id] : [])
    }
  })

  it("links brands and brand models, readable through the admin and store APIs", async () => {
    const card = catalog.cards.find((c) => c.brand && c.brand_model)!
    const product = await adminProduct(card.id, ",+catalog_brand.*,+catalog_brand_model.*")
    expect(product.catalog_brand).toMatchObject({ catalog_id: card.brand!.id, name: card.brand!.name })
    expect(product.catalog_brand_model).toMatchObject({ catalog_id: card.brand_model!.id, name: card.brand_model!.name })

    const brands = await app.store("/store/catalog-brands?limit=200")
    expect(brands.status).toBe(200)
    expect(brands.body.brands.map((b: any) => b.catalog_id).sort()).toEqual(catalog.brands.map((b) => b.id).sort())
    const one = await app.store(`/store/catalog-brands/${card.brand!.id}`)
    expect(one.body.brand.models.map((m: any) => m.catalog_id)).toContain(card.brand_model!.id)

    // Products without a brand have no link.
    const plain = catalog.cards.find((c) => !c.brand)
    if (plain) expect((await adminProduct(plain.id, ",+catalog_brand.*")).catalog_brand ?? null).toBeNull()
  })

  it("exposes a product's brand and model through the store product API", async () => {
    const card = catalog.cards.find((c) => c.brand && c.brand_model)!
    const product = await adminProduct(card.id)
    const store = await app.store(`/store/products/${product.id}?fields=${encodeURIComponent("id,*catalog_brand,*catalog_brand_model")}`)
    expect(store.status).toBe(200)
    expect(store.body.product.catalog_brand).toMatchObject({ catalog_id: card.brand!.id, name: card.brand!.name })
    expect(store.body.product.catalog_brand_model).toMatchObject({ catalog_id: card.brand_model!.id })

    const list = await app.store(`/store/products?limit=100&fields=${encodeURIComponent("id,external_id,+catalog_brand.name")}`)
    expect(list.status).toBe(200)
    const listed = list.body.products.find((p: any) => p.id === product.id)
    expect(listed.catalog_brand.name).toBe(card.brand!.name)
  })

  it("serves the primary language and, with a locale, the other one", async () => {
    const card = catalog.cards.find((c) => c.name_ru && c.description_ru)!
    const product = await adminProduct(card.id)
    const uk = await app.store(`/store/products/${product.id}`)
    expect(uk.body.product.title).toBe(card.name_uk)
    expect(uk.body.product.description).toBe(card.description_uk)
    const ru = await app.store(`/store/products/${product.id}?locale=ru-RU`)
    expect(ru.body.product.title).toBe(card.name_ru)
    expect(ru.body.product.description).toBe(card.description_ru)
    expect(ru.body.product.material).toBe(card.material_ru)
    // Metadata keeps the other language too, plus the texts Medusa has no field for.
    expect(product.metadata.translations.ru).toMatchObject({ title: card.name_ru, description: card.description_ru })
    expect(product.metadata.marketplace_text).toEqual({ uk: card.marketplace_text_uk, ru: card.marketplace_text_ru })
    expect(product.metadata.attributes.length).toBe(card.attributes!.length)
  })

  it("shows the crossed-out price and the selling price per variant in the store API", async () => {
    const withSizes = catalog.cards.filter((c) => c.sizes.length > 1 && c.cost_price !== null).slice(0, 3)
    const noSizes = catalog.cards.find((c) => c.sizes.length === 0 && c.cost_price !== null)
    expect(withSizes.length).toBeGreaterThan(0)
    for (const card of [...withSizes, ...(noSizes ? [noSizes] : [])]) {
      const product = await adminProduct(card.id)
      const res = await app.store(
        `/store/products/${product.id}?region_id=${regionId}&fields=${encodeURIComponent("*variants.calculated_price,+variants.metadata")}`
      )
      expect(res.status).toBe(200)
      const variants = res.body.product.variants
      const expected = card.sizes.length ? card.sizes.filter((s) => s.price) : [card]
      expect(variants.length).toBe(card.sizes.length || 1)
      for (const entry of expected) {
        const size = "size" in entry ? (entry as { size: string }).size.trim() : null
        const v = variants.find((x: any) => (x.metadata?.catalog_size ?? null) === size)
        expect(v).toBeDefined()
        const cp = v.calculated_price
        expect(dec(cp.calculated_amount).equals(dec(entry.price))).toBe(true)
        expect(dec(cp.original_amount).equals(dec(entry.old_price))).toBe(true)
        expect(cp.is_calculated_price_price_list).toBe(true)
        expect(cp.calculated_price.price_list_type).toBe("sale")
      }
    }
  })

  it("puts weight and dimensions where delivery needs them", async () => {
    const card = catalog.cards.find((c) => c.weight_kg && c.dimensions_cm?.length)!
    const res = await app.store(`/store/products/${(await adminProduct(card.id)).id}`)
    const p = res.body.product
    expect(dec(p.weight).equals(dec(card.weight_kg).times(1000))).toBe(true)
    expect(dec(p.length).equals(dec(card.dimensions_cm!.length).times(10))).toBe(true)
    expect(dec(p.width).equals(dec(card.dimensions_cm!.width).times(10))).toBe(true)
    expect(dec(p.height).equals(dec(card.dimensions_cm!.height).times(10))).toBe(true)
    if (card.origin_country) expect(p.origin_country).toBe(card.origin_country.toLowerCase())
    expect(p.material).toBe(card.material_uk)
  })

  it("fetches reference lists conditionally: an unchanged tree costs no quota, even after a restart", async () => {
    const state = await sql(db.url, "select reference_cache from mcs_sync_state limit 1")
    expect(state[0].reference_cache.categories.etag).toBeTruthy()
    proxy.log.length = 0
    await app.stop()
    app = await startMedusaApp({
      databaseUrl: db.url,
      label: "extras-catalog-2",
      env: { CATALOG_SYNC_REDIS_PREFIX: `mcs-fid-${randomUUID()}`, CATALOG_BASE_URL: "", CATALOG_API_KEY: "", ...EVERY_RUN_REFERENCES },
    })
    await run("changes")
    const refs = proxy.log.filter((e) => ["/v1/categories", "/v1/brands", "/v1/brand-models"].includes(e.path))
    expect(refs.map((e) => [e.path, e.status, e.conditional])).toEqual([
      ["/v1/categories", 304, true],
      ["/v1/brands", 304, true],
      ["/v1/brand-models", 304, true],
    ])
  })

  it("follows renamed, moved and vanished categories", async () => {
    const cats = catalog.categories
    const roots = cats.filter((c) => c.parent_id === null)
    const leaves = cats.filter((c) => !cats.some((x) => x.parent_id === c.id))
    const renamed = leaves[0]
    const moved = leaves.find((c) => c.id !== renamed.id && c.parent_id !== roots[roots.length - 1].id)!
    const newParent = roots[roots.length - 1]
    const vanished = leaves.find((c) => c.id !== renamed.id && c.id !== moved.id)!
    const edited: Category[] = cats
      .filter((c) => c.id !== vanished.id)
      .map((c) =>
        c.id === renamed.id
          ? { ...c, name: "Нова назва", name_uk: "Нова назва", name_ru: "Новое название" }
          : c.id === moved.id
            ? { ...c, parent_id: newParent.id }
            : c
      )
    proxy.setCategories(edited)
    await run("changes")
    const res = await app.admin(`/admin/product-categories?limit=1000&fields=${encodeURIComponent("id,name,external_id,parent_category_id,is_active")}`)
    const byExternal = new Map<string, any>(res.body.product_categories.map((c: any) => [c.external_id, c]))
    expect(byExternal.get(renamed.id).name).toBe("Нова назва")
    expect(byExternal.get(moved.id).parent_category_id).toBe(byExternal.get(newParent.id).id)
    expect(byExternal.get(vanished.id).is_active).toBe(false)
    const ru = await app.store(`/store/product-categories/${byExternal.get(renamed.id).id}?locale=ru-RU`)
    expect(ru.body.product_category.name).toBe("Новое название")
    // Inactive categories are not in the storefront.
    const store = await app.store("/store/product-categories?limit=1000&fields=id")
    expect(store.body.product_categories.map((c: any) => c.id)).not.toContain(byExternal.get(vanished.id).id)

    // And back: the category returns with the same id.
    proxy.setCategories(null)
    await run("changes")
    const again = await app.admin(`/admin/product-categories?limit=1000&fields=${encodeURIComponent("id,name,external_id,is_active")}`)
    const back = again.body.product_categories.find((c: any) => c.external_id === vanished.id)
    expect(back).toMatchObject({ id: byExternal.get(vanished.id).id, is_active: true, name: vanished.name_uk })
  })

  it("switches languages when the primary language changes", async () => {
    await configure(app, { primary_language: "ru" })
    await run("full")
    const card = catalog.cards.find((c) => c.name_ru && c.name_uk && c.name_ru !== c.name_uk && c.cost_price !== null)!
    const product = await adminProduct(card.id)
    expect(product.title).toBe(card.name_ru)
    expect(product.metadata.translations).toEqual({ uk: { title: card.name_uk, description: card.description_uk ?? null, material: card.material_uk ?? null } })
    const uk = await app.store(`/store/products/${product.id}?locale=uk-UA`)
    expect(uk.body.product.title).toBe(card.name_uk)
    const ru = await app.store(`/store/products/${product.id}?locale=ru-RU`)
    expect(ru.body.product.title).toBe(card.name_ru)
    // Exactly one translation row per product, in the other locale.
    const rows = await sql(
      db.url,
      "select locale_code, count(*)::int as n from translation where reference = 'product' and deleted_at is null group by locale_code"
    )
    expect(rows).toEqual([{ locale_code: "uk-UA", n: catalog.cards.length }])
    const category = catalog.categories.find((c) => c.name_ru && c.name_ru !== c.name_uk)!
    const cats = await app.admin(`/admin/product-categories?limit=1000&fields=${encodeURIComponent("id,name,external_id")}`)
    expect(cats.body.product_categories.find((c: any) => c.external_id === category.id).name).toBe(category.name_ru)
    await configure(app, { primary_language: "uk" })
    await run("full")
    expect((await adminProduct(card.id)).title).toBe(card.name_uk)
  })

  /** The product of a card as the shop shows it: variants per size, gallery, store prices. */
  const expectProductMatchesCard = async (card: ProductCard) => {
    const p = await adminProduct(card.id, ",+variants.metadata")
    const sizes = card.sizes.length ? card.sizes.map((s) => s.size.trim()).sort() : [null]
    expect(p.variants.map((v: any) => v.metadata.catalog_size ?? null).sort()).toEqual(sizes)
    // The gallery follows: same order, main image first, no duplicates accumulated.
    const urls = [...card.images.filter((i) => i.is_main), ...card.images.filter((i) => !i.is_main)].map((i) => i.url)
    expect([...p.images].sort((a: any, b: any) => a.rank - b.rank).map((i: any) => i.url)).toEqual(urls)
    expect(p.thumbnail).toBe(urls[0] ?? null)
    if (card.cost_price === null) return p
    const store = await app.store(`/store/products/${p.id}?region_id=${regionId}&fields=${encodeURIComponent("*variants.calculated_price,+variants.metadata")}`)
    const entries = card.sizes.length ? card.sizes : [{ ...card, size: null as unknown as string }]
    for (const s of entries) {
      if (!s.price) continue
      const v = store.body.product.variants.find((x: any) => (x.metadata.catalog_size ?? null) === (s.size?.trim() ?? null))
      expect(dec(v.calculated_price.calculated_amount).equals(dec(s.price))).toBe(true)
      expect(dec(v.calculated_price.original_amount).equals(dec(s.old_price))).toBe(true)
    }
    return p
  }

  const orphanInventoryItems = async () =>
    (
      await sql(
        db.url,
        `select count(*)::int as n from inventory_item ii where ii.deleted_at is null
           and not exists (select 1 from product_variant_inventory_item l join product_variant v on v.id = l.variant_id
                           where l.inventory_item_id = ii.id and l.deleted_at is null and v.deleted_at is null)`
      )
    )[0].n

  it("follows photos added, removed and reordered, and price and stock changes", async () => {
    const ids = catalog.cards
      .filter((c) => c.images.length > 1 && c.cost_price !== null)
      .slice(0, 4)
      .map((c) => c.id)
    sandbox.control.mutate({ count: 16, kinds: ["photos", "price", "stock"], ids })
    await run("changes")
    await refreshCatalog()
    const cards = cardsById()
    for (const id of ids) await expectProductMatchesCard(cards.get(id)!)
    const images = await sql(
      db.url,
      "select count(*)::int as n from image i join product p on p.id = i.product_id where p.deleted_at is null and i.deleted_at is null"
    )
    expect(images[0].n).toBe(catalog.cards.reduce((n, c) => n + new Set(c.images.map((i) => i.url)).size, 0))
  })

  it("follows sizes added and removed: variants, prices and inventory with them", async () => {
    const ids = catalog.cards
      .filter((c) => c.sizes.length > 1 && c.cost_price !== null)
      .slice(0, 4)
      .map((c) => c.id)
    sandbox.control.mutate({ count: 12, kinds: ["sizes"], ids })
    await run("changes")
    await refreshCatalog()
    const cards = cardsById()
    for (const id of ids) await expectProductMatchesCard(cards.get(id)!)
    expect(await orphanInventoryItems()).toBe(0)
  })

  it("removes a product taken off sale, with its translations, sale prices and brand links", async () => {
    const card = catalog.cards.find((c) => c.cost_price !== null && c.sizes.length > 0 && c.brand && c.brand_model)!
    const product = await adminProduct(card.id)
    const liveLinks = async () =>
      (
        await sql(
          db.url,
          `select (select count(*)::int from product_product_catalog_sync_catalog_brand where product_id = $1 and deleted_at is null) as brand,
                  (select count(*)::int from product_product_catalog_sync_catalog_brand_model where product_id = $1 and deleted_at is null) as model`,
          [product.id]
        )
      )[0]
    // Not vacuous: the product had both links.
    expect(await liveLinks()).toEqual({ brand: 1, model: 1 })
    sandbox.control.mutate({ remove_ids: [card.id] })
    await run("changes")
    const gone = await app.admin(`/admin/products?external_id=${card.id}`)
    expect(gone.body.products).toEqual([])
    const rows = await sql(db.url, "select count(*)::int as n from translation where reference_id = $1 and deleted_at is null", [product.id])
    expect(rows[0].n).toBe(0)
    const sale = await sql(
      db.url,
      `select count(*)::int as n from price p join product_variant_price_set l on l.price_set_id = p.price_set_id
        where l.variant_id = any($1) and p.price_list_id is not null and p.deleted_at is null`,
      [product.variants.map((v: any) => v.id)]
    )
    expect(sale[0].n).toBe(0)
    expect(await liveLinks()).toEqual({ brand: 0, model: 0 })
    await refreshCatalog()
  })

  it("drops a brand with no products on sale, and keeps the others", async () => {
    const counts = new Map<string, number>()
    for (const c of catalog.cards) if (c.brand) counts.set(c.brand.id, (counts.get(c.brand.id) ?? 0) + 1)
    const [brandId] = [...counts.entries()].sort((a, b) => a[1] - b[1])[0]
    const ids = catalog.cards.filter((c) => c.brand?.id === brandId).map((c) => c.id)
    sandbox.control.mutate({ remove_ids: ids })
    await run("changes")
    await refreshCatalog()
    const brands = await app.store("/store/catalog-brands?limit=200")
    const listed = brands.body.brands.map((b: any) => b.catalog_id)
    expect(listed).not.toContain(brandId)
    expect(listed.sort()).toEqual(catalog.brands.map((b) => b.id).sort())
    const rows = await sql(db.url, "select deleted_at from mcs_brand where catalog_id = $1", [brandId])
    expect(rows.length).toBe(1)
    expect(rows[0].deleted_at).not.toBeNull()
  })

  it("handles products out of stock, without sizes and without a cost", async () => {
    const cards = catalog.cards
    const outOfStock = cards.find((c) => !c.in_stock)
    if (outOfStock) {
      const p = await adminProduct(outOfStock.id, ",*variants.inventory_items.inventory.location_levels")
      for (const v of p.variants) {
        const levels = v.inventory_items.flatMap((i: any) => i.inventory.location_levels)
        expect(levels.length).toBeGreaterThan(0)
        for (const l of levels) expect(Number(l.stocked_quantity)).toBe(0)
      }
    }
    const noSizes = cards.find((c) => c.sizes.length === 0)
    if (noSizes) expect((await adminProduct(noSizes.id)).variants.length).toBe(1)
    const noCost = cards.find((c) => c.cost_price === null)
    if (noCost) {
      const p = await adminProduct(noCost.id)
      expect(p.status).toBe("draft")
      const store = await app.store(`/store/products?id=${p.id}`)
      expect(store.body.products).toEqual([])
    }
    // Recorded so a reader of the log can see which edge cases this seed covered.
    console.log(`edge cases covered: out of stock ${!!outOfStock}, no sizes ${!!noSizes}, no cost ${!!noCost}`)
  })
})
