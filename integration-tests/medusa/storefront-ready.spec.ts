// From a fresh shop to products on the storefront: after only saving the settings (which
// starts the first sync), the store API answers with the app's own default publishable key
// and the UAH region the first-run setup created: products priced in uah, the size option in
// Ukrainian, plain SKUs in size order. The readiness checklist reports green, turns red when
// the key loses the channel or the region goes, and its fixes make it green again.
import { compareSizes } from "../../src/sync/size-order"
import { configureAndWait, readCatalog, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"
import { sql } from "./poll-and-query"

jest.setTimeout(900_000)

const PRODUCTS = 30

describe("storefront ready by default", () => {
  let env: SyncEnv
  let defaultKey: { id: string; token: string }
  let firstRun: any

  const storeGet = async (path: string) => {
    const res = await fetch(env.app.url + path, { headers: { "x-publishable-api-key": defaultKey.token } })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : null }
  }
  const readiness = async () => {
    const res = await env.app.admin("/admin/catalog-sync/readiness")
    expect(res.status).toBe(200)
    return res.body.readiness
  }
  const statusOf = (r: any) => Object.fromEntries(r.checks.map((c: any) => [c.id, c.status]))

  beforeAll(async () => {
    env = await startSyncEnv("storefront-ready", { products: PRODUCTS, seed: 11 })
    // The key a fresh Medusa app makes for itself (not the harness's own).
    ;[defaultKey] = await sql(env.db.url, "select id, token from api_key where type = 'publishable' and revoked_at is null order by created_at limit 1")
    expect(defaultKey).toBeTruthy()
    expect(await sql(env.db.url, "select id from region where currency_code = 'uah' and deleted_at is null")).toHaveLength(0)
    ;({ run: firstRun } = await configureAndWait(env, {
      base_url: env.sb.baseUrl,
      api_key: env.sb.apiKey,
      markup_percent: "30",
      old_price_markup_percent: "25",
    }))
  })
  afterAll(async () => {
    await env?.close()
  })

  it("sells in the store's default channel, which the default key sees, and creates the UAH region", async () => {
    expect(firstRun).toMatchObject({ status: "succeeded", created: PRODUCTS })
    const [store] = await sql(env.db.url, "select default_sales_channel_id from store limit 1")
    const channels = await sql(env.db.url, "select distinct sales_channel_id from product_sales_channel where deleted_at is null")
    expect(channels.map((c) => c.sales_channel_id)).toEqual([store.default_sales_channel_id])
    const regions = await sql(
      env.db.url,
      "select r.id, r.name, r.currency_code, array_agg(c.iso_2) as countries from region r left join region_country c on c.region_id = r.id where r.deleted_at is null group by r.id"
    )
    expect(regions).toEqual([expect.objectContaining({ name: "Україна", currency_code: "uah", countries: ["ua"] })])
    const r = await readiness()
    expect(r.checks.map((c: any) => c.id)).toEqual(["sales_channel", "publishable_key", "region", "stock_location", "drafts"])
    expect(r.checks.filter((c: any) => c.id !== "drafts").every((c: any) => c.status === "ok")).toBe(true)
    expect(r.ready).toBe(true)
    expect(r.sales_channel).toMatchObject({ id: store.default_sales_channel_id, source: "store_default" })
    expect(r.region).toMatchObject({ name: "Україна", countries: ["ua"] })
  })

  it('the store API lists the products with the default key: UAH prices, "Розмір", plain SKUs in size order', async () => {
    const [region] = await sql(env.db.url, "select id from region where currency_code = 'uah' and deleted_at is null")
    const withoutRegion = await storeGet("/store/products?limit=1&fields=*variants.calculated_price")
    expect(withoutRegion.status).toBe(400)
    const res = await storeGet(
      `/store/products?limit=100&region_id=${region.id}&fields=*variants.calculated_price,*options,*options.values,+variants.sku,+variants.variant_rank,+external_id`
    )
    expect(res.status).toBe(200)
    const cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    const published = (await sql(env.db.url, "select count(*)::int as n from product where status = 'published' and deleted_at is null"))[0].n
    expect(published).toBeGreaterThan(0)
    expect(res.body.count).toBe(published)
    for (const product of res.body.products) {
      expect(product.options.map((o: any) => o.title)).toEqual(["Розмір"])
      const card = cards.find((c) => c.id === product.external_id)!
      const sizes = product.variants.map((v: any) => v.metadata?.catalog_size ?? v.title)
      for (const v of product.variants) {
        expect(v.sku).not.toContain("#")
        expect(v.sku.startsWith(card.sku)).toBe(true)
        if (v.calculated_price) expect(v.calculated_price.currency_code).toBe("uah")
      }
      expect(product.variants.some((v: any) => v.calculated_price?.calculated_amount > 0)).toBe(true)
      if (card.sizes.length === 0) {
        expect(product.options[0].values.map((v: any) => v.value)).toEqual(["Один розмір"])
      } else {
        // Sizes in size order: the variants' ranks and the option values' ranks.
        const ordered = [...sizes].sort(compareSizes)
        const byRank = [...product.variants].sort((a: any, b: any) => a.variant_rank - b.variant_rank)
        expect(byRank.map((v: any) => v.title)).toEqual(ordered)
        const values = await sql(
          env.db.url,
          "select v.value from product_option_value v join product_option o on o.id = v.option_id join product_product_option ppo on ppo.product_option_id = o.id where ppo.product_id = $1 and v.deleted_at is null order by v.rank",
          [product.id]
        )
        expect(values.map((v) => v.value)).toEqual(ordered)
      }
    }
  })

  it("serves the size option in Russian through the translation module", async () => {
    const [region] = await sql(env.db.url, "select id from region where currency_code = 'uah' and deleted_at is null")
    const rows = await sql(
      env.db.url,
      "select reference, translations from translation where reference in ('product_option', 'product_option_value') and locale_code = 'ru-RU' and deleted_at is null"
    )
    expect(rows.filter((r) => r.reference === "product_option").map((r) => r.translations)).toContainEqual({ title: "Размер" })
    // Every plugin product's size option, and every "Один розмір" value of one, has its ru-RU row.
    const untranslated = (reference: string, field: string, word: string, valueFilter: string) =>
      sql(
        env.db.url,
        `select x.id from product p
           join product_product_option ppo on ppo.product_id = p.id and ppo.deleted_at is null
           join product_option o on o.id = ppo.product_option_id and o.deleted_at is null
           ${reference === "product_option" ? "cross join lateral (select o.id) x" : `join product_option_value x on x.option_id = o.id and x.deleted_at is null and ${valueFilter}`}
          where p.deleted_at is null and p.metadata->>'catalog_sync' = 'true'
            and not exists (select 1 from translation t where t.reference = $1 and t.reference_id = x.id and t.locale_code = 'ru-RU'
                              and t.deleted_at is null and t.translations->>$2 = $3)`,
        [reference, field, word]
      )
    expect(await untranslated("product_option", "title", "Размер", "")).toEqual([])
    expect(await untranslated("product_option_value", "value", "Один размер", "x.value = 'Один розмір'")).toEqual([])
    const [counts] = await sql(
      env.db.url,
      `select count(distinct o.id)::int as options, count(v.id)::int as one_size from product p
         join product_product_option ppo on ppo.product_id = p.id and ppo.deleted_at is null
         join product_option o on o.id = ppo.product_option_id and o.deleted_at is null
         left join product_option_value v on v.option_id = o.id and v.deleted_at is null and v.value = 'Один розмір'
        where p.deleted_at is null and p.metadata->>'catalog_sync' = 'true'`
    )
    expect(counts.options).toBeGreaterThan(10)
    expect(counts.one_size).toBeGreaterThan(0)
    const res = await storeGet(`/store/products?limit=5&region_id=${region.id}&locale=ru-RU&fields=*options`)
    expect(res.status).toBe(200)
    for (const product of res.body.products) expect(product.options.map((o: any) => o.title)).toEqual(["Размер"])
  })

  it("renames the size words on existing products when the primary language changes", async () => {
    await env.app.admin("/admin/catalog-sync/settings", { body: { primary_language: "ru" } })
    expect(await runAndWait(env, "full")).toMatchObject({ status: "succeeded", skipped: 0 })
    const titles = await sql(
      env.db.url,
      "select distinct o.title from product_option o join product_product_option ppo on ppo.product_option_id = o.id where o.deleted_at is null"
    )
    expect(titles.map((t) => t.title)).toEqual(["Размер"])
    const oneSize = await sql(
      env.db.url,
      "select distinct v.value from product_variant pv join product_variant_option pvo on pvo.variant_id = pv.id join product_option_value v on v.id = pvo.option_value_id where pv.deleted_at is null and pv.metadata->>'catalog_size' is null"
    )
    expect(oneSize.map((v) => v.value).filter((v) => /^Один/.test(v))).toEqual(oneSize.length ? ["Один размер"] : [])
    const [region] = await sql(env.db.url, "select id from region where currency_code = 'uah' and deleted_at is null")
    const uk = await storeGet(`/store/products?limit=3&region_id=${region.id}&locale=uk-UA&fields=*options`)
    for (const product of uk.body.products) expect(product.options.map((o: any) => o.title)).toEqual(["Розмір"])
    await env.app.admin("/admin/catalog-sync/settings", { body: { primary_language: "uk" } })
    expect(await runAndWait(env, "full")).toMatchObject({ status: "succeeded", skipped: 0 })
  })

  it("the checklist turns red when the key loses the channel and the region goes, and its fixes make it green", async () => {
    const [store] = await sql(env.db.url, "select default_sales_channel_id from store limit 1")
    const [region] = await sql(env.db.url, "select id from region where currency_code = 'uah' and deleted_at is null")
    expect((await env.app.admin(`/admin/api-keys/${defaultKey.id}/sales-channels`, { body: { remove: [store.default_sales_channel_id] } })).status).toBe(200)
    expect((await env.app.admin(`/admin/regions/${region.id}`, { method: "DELETE" })).status).toBe(200)
    // Another region now holds ua: the fix creates "Україна" without it and says so.
    const eu = await env.app.admin("/admin/regions", { body: { name: "Europe", currency_code: "eur", countries: ["ua", "pl"] } })
    expect(eu.status).toBe(200)

    let r = await readiness()
    expect(statusOf(r)).toMatchObject({ sales_channel: "ok", publishable_key: "error", region: "error", stock_location: "ok" })
    expect(r.ready).toBe(false)
    expect(r.checks.find((c: any) => c.id === "region").detail).toMatch(/UA is in region "Europe"/)
    const blind = await storeGet("/store/products?limit=1")
    expect(blind.status !== 200 || blind.body.count === 0).toBe(true)

    const bad = await env.app.admin("/admin/catalog-sync/readiness/fix", { body: { check: "nope" } })
    expect(bad.status).toBe(400)
    for (const check of ["publishable_key", "region"]) {
      const fixed = await env.app.admin("/admin/catalog-sync/readiness/fix", { body: { check } })
      expect(fixed.status).toBe(200)
      r = fixed.body.readiness
    }
    expect(statusOf(r)).toMatchObject({ sales_channel: "ok", publishable_key: "ok", region: "ok", stock_location: "ok" })
    expect(r.ready).toBe(true)
    expect(r.region).toMatchObject({ name: "Україна", countries: [] })
    const listed = await storeGet(`/store/products?limit=1&region_id=${r.region.id}&fields=*variants.calculated_price`)
    expect(listed.status).toBe(200)
    expect(listed.body.count).toBeGreaterThan(0)
  })

  it("refuses to switch the sale price list off from the admin", async () => {
    const lists = await sql(env.db.url, "select id, title from price_list where deleted_at is null and metadata->>'source' = 'catalog-sync'")
    expect(lists).toHaveLength(1)
    expect(lists[0].title).toBe("Catalog selling prices")
    const res = await env.app.admin(`/admin/price-lists/${lists[0].id}`, { body: { status: "draft" } })
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/crossed-out prices/)
    const [after] = await sql(env.db.url, "select status from price_list where id = $1", [lists[0].id])
    expect(after.status).toBe("active")
  })
})
