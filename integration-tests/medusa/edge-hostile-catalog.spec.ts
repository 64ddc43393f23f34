// A hostile catalog against a real Medusa app: about a quarter of the change items are
// malformed in many ways (string ids and stock, negative, 30-digit and 3-decimal prices,
// duplicate and empty sizes, unknown statuses, ids beyond int64, javascript:/data:/file:
// image URLs, NUL bytes and control characters, huge texts, a SKU too large for PostgreSQL's
// indexes). Every valid card lands exactly; every malformed one is stored made safe or
// rejected with its id (or an excerpt) and field; nothing malformed reaches the database or
// the store API; and the next run, whose only write is the card the database refuses,
// completes too.
import { compareShop, configureAndWait, readCatalog, readShop, runAndWait, startCatalogProxy, startSyncEnv, type SyncEnv } from "./sync-helpers"
import { sql } from "./poll-and-query"
import {
  BAD_IMAGES_ID,
  DB_POISON_ID,
  GOOD_IMAGE_URL,
  HUGE_TEXT_ID,
  hostileItems,
  mixInto,
  NO_GOOD_IMAGE_ID,
  NUL_CARD_ID,
  type HostileItem,
} from "./hostile-catalog"
import type { ProductCard } from "../../src/catalog-client"

jest.setTimeout(900_000)

const PRODUCTS = 240 // two pages of the full export (200 + 40)

interface RunRecord {
  id: string | null
  field?: string
  reason: string
  excerpt?: string
  kept?: boolean
}

/** Every kept, rejected or refused expectation is met by the run's records. */
function checkRecords(records: RunRecord[], items: HostileItem[]): string[] {
  const problems: string[] = []
  const rejected = records.filter((r) => !r.kept)
  const warnings = records.filter((r) => r.kept)
  for (const h of items) {
    const e = h.expect
    if (e.kind === "rejected") {
      const match = rejected.find(
        (r) => r.id === e.id && (r.field ?? null) === e.field && (e.excerptHas === undefined || (r.excerpt ?? "").includes(e.excerptHas))
      )
      if (!match) problems.push(`${h.what}: no rejected record with id ${e.id} and field ${e.field}`)
      else if (e.id === null && !match.excerpt) problems.push(`${h.what}: no excerpt`)
    } else if (e.kind === "refused-by-db") {
      const match = rejected.find((r) => r.id === e.id)
      if (!match) problems.push(`${h.what}: not rejected`)
      else if (!/^write failed: /.test(match.reason) || /insert|update|select|values|\bfrom\b/i.test(match.reason)) {
        problems.push(`${h.what}: reason not plain: ${match.reason}`)
      }
    } else {
      if (rejected.some((r) => r.id === e.id)) problems.push(`${h.what}: rejected although it can be stored safely`)
      const fields = warnings.filter((w) => w.id === e.id).map((w) => w.field)
      for (const f of e.warnings) if (!fields.includes(f)) problems.push(`${h.what}: no warning for ${f}`)
    }
  }
  for (const r of records) {
    if (!r.reason || /\u0000/.test(JSON.stringify(r))) problems.push(`bad record ${JSON.stringify(r)}`)
    if (r.id === null && (r.excerpt ?? "").length > 201) problems.push(`excerpt too long: ${r.excerpt?.length}`)
  }
  return problems
}

describe("a hostile catalog: bad data is contained", () => {
  let env: SyncEnv
  let proxy: Awaited<ReturnType<typeof startCatalogProxy>>
  let cards: ProductCard[]
  const { early, last } = hostileItems()
  const keptIds = [NUL_CARD_ID, BAD_IMAGES_ID, NO_GOOD_IMAGE_ID, HUGE_TEXT_ID]
  let firstRun: any
  let pagesServed = 0

  beforeAll(async () => {
    env = await startSyncEnv("edge-hostile", { products: PRODUCTS, seed: 71 })
    proxy = await startCatalogProxy(env.sb.baseUrl)
    cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    proxy.hooks.rewriteChanges = (body) => {
      pagesServed++
      body.data = mixInto(body.data, body.meta?.has_more ? early : last)
      return body
    }
    const { run } = await configureAndWait(env, { base_url: proxy.url, api_key: env.sb.apiKey, markup_percent: "30" })
    firstRun = run
  })
  afterAll(async () => {
    await proxy?.close()
    await env?.close()
  })

  it("serves about a quarter malformed items, mixed into the valid ones", () => {
    // The sandbox's own cards all pass validation: they are the "valid" part.
    expect(cards).toHaveLength(PRODUCTS)
    const malformed = early.length + last.length
    expect(malformed / (malformed + PRODUCTS)).toBeGreaterThan(0.2)
    expect(pagesServed).toBeGreaterThanOrEqual(2)
  })

  it("the first run succeeds; every valid card lands exactly", async () => {
    expect(firstRun).toMatchObject({ status: "succeeded", created: PRODUCTS + keptIds.length })
    const shop = await readShop(env.db.url)
    for (const id of keptIds) shop.delete(id)
    expect(compareShop(cards, shop)).toEqual([])
  })

  it("every malformed item is rejected with its id (or an excerpt) and field, or stored made safe", async () => {
    const records: RunRecord[] = firstRun.rejected_items
    expect(checkRecords(records, [...early, ...last])).toEqual([])
    const rejectedCount = [...early, ...last].filter((h) => h.expect.kind !== "kept").length
    // The bad-images card is served on both pages: its warnings come twice, it is skipped never.
    expect(firstRun.skipped).toBe(rejectedCount)
    expect(records.filter((r) => !r.kept)).toHaveLength(rejectedCount)
    // Nothing rejected reached the shop.
    const rejectedIds = records.filter((r) => !r.kept && r.id).map((r) => r.id)
    const leaked = await sql(env.db.url, "select external_id from product where external_id = any($1) and deleted_at is null", [rejectedIds])
    expect(leaked).toEqual([])
  })

  it("cards made safe are stored clean: no NUL or control characters, only http(s) images, next good image as thumbnail", async () => {
    const products = await sql(
      env.db.url,
      "select external_id, title, description, handle, thumbnail, metadata from product where external_id = any($1) and deleted_at is null",
      [keptIds]
    )
    expect(products.map((p) => p.external_id).sort()).toEqual([...keptIds].sort())
    const byId = new Map(products.map((p) => [p.external_id, p]))
    expect(byId.get(NUL_CARD_ID)).toMatchObject({ title: "Кеди Nike", description: "Опис з NUL  і керуючими" })
    expect(byId.get(NUL_CARD_ID).metadata).toMatchObject({ sku: "NULSKU", brand: { name: "Brand" } })
    const nulVariants = await sql(
      env.db.url,
      "select v.sku, v.title from product_variant v join product p on p.id = v.product_id where p.external_id = $1 and v.deleted_at is null",
      [NUL_CARD_ID]
    )
    expect(nulVariants).toEqual([{ sku: "NULSKU-42", title: "42" }])
    expect(byId.get(BAD_IMAGES_ID).thumbnail).toBe(GOOD_IMAGE_URL)
    expect(byId.get(NO_GOOD_IMAGE_ID).thumbnail).toBeNull()
    const images = await sql(
      env.db.url,
      "select p.external_id, i.url from image i join product p on p.id = i.product_id where p.external_id = any($1) and i.deleted_at is null order by i.rank",
      [[BAD_IMAGES_ID, NO_GOOD_IMAGE_ID]]
    )
    expect(images).toEqual([{ external_id: BAD_IMAGES_ID, url: GOOD_IMAGE_URL }])
    expect(byId.get(HUGE_TEXT_ID).description).toHaveLength(50_000)
  })

  it("nothing malformed is anywhere in Medusa's tables or the store API", async () => {
    const badUrl = "(^|[^a-z])(javascript|data|file):"
    const hits = await sql(
      env.db.url,
      `select 'image' as t, url as v from image where url !~* '^https?://' or url ~* $1
       union all select 'thumbnail', thumbnail from product where thumbnail is not null and (thumbnail !~* '^https?://' or thumbnail ~* $1)
       union all select 'product', external_id from product where (title || coalesce(description, '') || handle || metadata::text) ~ '[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]'
       union all select 'variant', sku from product_variant where (coalesce(sku, '') || title) ~ '[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]'
       union all select 'price', raw_amount->>'value' from price where raw_amount->>'value' ~* 'e' or amount < 0
       union all select 'product', external_id from product where external_id !~ '^[1-9][0-9]{0,18}$'`,
      [badUrl]
    )
    expect(hits).toEqual([])
    // Every price the plugin wrote has at most 2 decimals and at most 13 integer digits.
    const prices = await sql(env.db.url, "select raw_amount->>'value' as v from price where deleted_at is null")
    for (const { v } of prices) expect(v).toMatch(/^[0-9]{1,13}(\.[0-9]{1,2}0*)?$/)

    const store = await env.app.store(`/store/products?limit=1000&fields=${encodeURIComponent("id,external_id,title,thumbnail,*images")}`)
    expect(store.status).toBe(200)
    const text = JSON.stringify(store.body)
    expect(text).not.toMatch(/javascript:|data:text|file:\/\/|\\u0000|\\u0001|\\u0007/)
    for (const p of store.body.products) {
      if (p.thumbnail) expect(p.thumbnail).toMatch(/^https?:\/\//)
      for (const i of p.images ?? []) expect(i.url).toMatch(/^https?:\/\//)
    }
    const badImages = store.body.products.find((p: any) => p.external_id === BAD_IMAGES_ID)
    expect(badImages?.thumbnail).toBe(GOOD_IMAGE_URL)
  })

  it("the next run completes too, its only write being the card the database refuses", async () => {
    const next = await runAndWait(env, "changes")
    expect(next).toMatchObject({ status: "succeeded", created: 0, updated: 0 })
    expect(checkRecords(next.rejected_items, last)).toEqual([])
    expect(next.rejected_items.find((r: RunRecord) => r.id === DB_POISON_ID)).toBeTruthy()
    // And one more: the feed keeps moving (nothing stalls on the same page).
    const third = await runAndWait(env, "changes")
    expect(third).toMatchObject({ status: "succeeded" })
    const shop = await readShop(env.db.url)
    for (const id of keptIds) shop.delete(id)
    expect(compareShop(cards, shop)).toEqual([])
  })
})
