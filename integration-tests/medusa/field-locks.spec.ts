// Field locks end to end (issue 13): the admin locks a product's title and images through the
// widget's route and sets their own; the catalog then renames the product, changes its photos
// and its price; after a sync the title and images are the admin's (SQL on Medusa's tables),
// the price is the catalog's, and the route reports the catalog's new title. With auto-lock on,
// an admin edit of a description through Medusa's admin API locks it, and the sync's own writes
// lock nothing (a price-only change emits product-variant.updated, not product.updated, and the
// sync's product.updated events carry its mark); unlocking the title takes the catalog's at once; a reprice run skips locked prices. Small shop by default (FIELD_LOCKS_PRODUCTS for a bigger one).
import { judgeShop, readShopTruth, type TruthCard } from "../harness/shop-truth"
import { configureAndWait, readCatalog, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"
import { sql } from "./poll-and-query"

jest.setTimeout(900_000)

const PRODUCTS = Number(process.env.FIELD_LOCKS_PRODUCTS ?? 30)
const PRICING = { price_calculation: "max", markup_percent: "30", discount_percent: null, old_price_markup_percent: null } as const

describe("field locks", () => {
  let env: SyncEnv
  let cards: TruthCard[]
  /** The product whose title and images the admin locked. */
  let lockedProductId: string

  const catalog = async () =>
    (await readCatalog(env.sb.baseUrl, env.sb.apiKey, PRICING as never)) as unknown as (TruthCard & { name_uk: string; description?: string | null })[]
  const sync = async () => {
    const run = await runAndWait(env, "changes")
    expect([run.status, run.error_message, run.skipped, run.rejected_items ?? []]).toEqual(["succeeded", null, 0, []])
  }
  const productOf = async (catalogId: string) =>
    (await sql(env.db.url, "select id, title, description, thumbnail from product where external_id = $1 and deleted_at is null", [catalogId]))[0]
  const locksOf = async (productId: string) => {
    const res = await env.app.admin(`/admin/catalog-sync/products/${productId}/locks`)
    expect(res.status).toBe(200)
    return res.body.locks as { managed: boolean; fields: { field: string; locked: boolean; locked_by: string | null; catalog_value: unknown }[] }
  }
  const field = (locks: Awaited<ReturnType<typeof locksOf>>, name: string) => locks.fields.find((f) => f.field === name)!
  /** Renames a product in the sandbox (its colour is part of the name); recorded as a change of its card. */
  const rename = (catalogId: string) => {
    const p = env.sb.state.catalog.findLive(catalogId)!
    p.colorIndex = p.colorIndex === 0 ? 1 : p.colorIndex - 1
    env.sb.state.catalog.recordChange(p, ["description"], Date.now())
  }
  /** Applies `kind` to the product until its card changes that way (a mutation may draw the same value). */
  const mutateUntil = async (catalogId: string, kind: "price" | "photos", changed: (before: TruthCard, after: TruthCard) => boolean) => {
    const before = (await catalog()).find((c) => c.id === catalogId)!
    for (let i = 0; i < 20; i++) {
      env.sb.state.mutator.mutate(1, [kind], [catalogId])
      if (
        changed(
          before,
          (await catalog()).find((c) => c.id === catalogId)!
        )
      )
        return
    }
    throw new Error(`${kind} of ${catalogId} did not change`)
  }

  /** A priced product with a gallery: the one whose title and images are locked. */
  const lockable = (c: TruthCard) => c.images.length >= 2 && (c.sizes.some((s) => s.price) || !!c.price)

  beforeAll(async () => {
    env = await startSyncEnv("field-locks", { products: PRODUCTS, seed: 13 })
    const { run } = await configureAndWait(env, {
      base_url: env.sb.baseUrl,
      api_key: env.sb.apiKey,
      ...PRICING,
      field_locks: { auto_lock_on_admin_edit: true },
    })
    expect(run).toMatchObject({ status: "succeeded", skipped: 0 })
    cards = await catalog()
    expect(judgeShop(cards, await readShopTruth(env.db.url))).toEqual([])
  })
  afterAll(async () => {
    await env?.close()
  })

  it("refuses an unknown field in the shop-wide default, naming it, and keeps the saved one", async () => {
    const bad = await env.app.admin("/admin/catalog-sync/settings", { body: { field_locks: { locked: ["title", "sku"] } } })
    expect(bad.status).toBe(400)
    expect(bad.body.field).toBe("field_locks.locked.1")
    const saved = await env.app.admin("/admin/catalog-sync/settings")
    expect(saved.body.settings.field_locks).toEqual({ locked: [], auto_lock_on_admin_edit: true })
  })

  it("a locked title and gallery stay as the admin set them; the price follows the catalog; the route shows the catalog's title", async () => {
    const card = cards.find(lockable)!
    const product = await productOf(card.id)
    lockedProductId = product.id
    const locked = await env.app.admin(`/admin/catalog-sync/products/${product.id}/locks`, { body: { fields: ["title", "images"], locked: true } })
    expect(locked.status).toBe(200)
    const adminImages = ["https://shop.example/lifestyle-1.jpg", "https://shop.example/lifestyle-2.jpg"]
    const edited = await env.app.admin(`/admin/products/${product.id}`, {
      body: { title: "Admin's SEO title", images: adminImages.map((url) => ({ url })), thumbnail: adminImages[0] },
    })
    expect(edited.status).toBe(200)

    rename(card.id)
    await mutateUntil(card.id, "photos", (a, b) => JSON.stringify(a.images) !== JSON.stringify(b.images))
    await mutateUntil(
      card.id,
      "price",
      (a, b) => JSON.stringify(a.sizes.map((s) => s.price)) + a.price !== JSON.stringify(b.sizes.map((s) => s.price)) + b.price
    )
    await sync()

    const after = await catalog()
    const now = after.find((c) => c.id === card.id)!
    expect(now.name_uk).not.toBe((card as { name_uk?: string }).name_uk)
    const shop = await productOf(card.id)
    expect(shop.title).toBe("Admin's SEO title")
    const truth = await readShopTruth(env.db.url)
    expect(truth.products.get(card.id)!.images).toEqual(adminImages)
    expect(truth.products.get(card.id)!.thumbnail).toBe(adminImages[0])
    // Everything else, prices and stock of this product included, is the catalog's.
    const problems = judgeShop(after, truth)
    expect(problems.filter((p) => !p.startsWith(`${card.id}: images `) && !p.startsWith(`${card.id}: thumbnail `))).toEqual([])
    expect(problems.length).toBe(2)

    const locks = await locksOf(product.id)
    expect(locks.managed).toBe(true)
    expect(field(locks, "title")).toMatchObject({ locked: true, locked_by: "product", catalog_value: now.name_uk })
    expect(field(locks, "images").catalog_value).toEqual(now.images.length ? expect.arrayContaining(now.images.map((i) => i.url)) : [])
    expect(field(locks, "prices")).toMatchObject({ locked: false, catalog_value: null })

    // Unlocking the title takes the catalog's at once (and is not an admin edit for auto-lock).
    const unlocked = await env.app.admin(`/admin/catalog-sync/products/${product.id}/locks`, { body: { fields: ["title"], locked: false } })
    expect(unlocked.status).toBe(200)
    expect((await productOf(card.id)).title).toBe(now.name_uk)
    expect(field(unlocked.body.locks, "title").locked).toBe(false)
    const refused = await env.app.admin(`/admin/catalog-sync/products/${product.id}/locks`, { body: { fields: ["sku"], locked: true } })
    expect([refused.status, refused.body.field]).toEqual([400, "fields.0"])
  })

  it("auto-lock: an admin edit of the description locks it, and the sync keeps it; the sync's own writes lock nothing", async () => {
    const card = cards.find((c) => (c as any).description_uk && !lockable(c))!
    expect(card).toBeDefined()
    const product = await productOf(card.id)
    const edited = await env.app.admin(`/admin/products/${product.id}`, { body: { description: "<p>Written by the shop</p>" } })
    expect(edited.status).toBe(200)
    const deadline = Date.now() + 60_000
    while (!field(await locksOf(product.id), "description").locked) {
      if (Date.now() > deadline) throw new Error("description was not auto-locked")
      await new Promise((r) => setTimeout(r, 500))
    }
    expect((await locksOf(product.id)).fields.filter((f) => f.locked).map((f) => f.field)).toEqual(["description"])

    rename(card.id)
    env.sb.state.mutator.mutate(1, ["description"], [card.id])
    await sync()
    const shop = await productOf(card.id)
    expect(shop.description).toBe("<p>Written by the shop</p>")
    const now = (await catalog()).find((c) => c.id === card.id)!
    expect(shop.title).toBe(now.name_uk)

    // Only the two products the admin touched have locks.
    const rows = await sql(
      env.db.url,
      "select product_id, lock from mcs_field_lock where deleted_at is null and jsonb_array_length(coalesce(lock, '[]'::jsonb)) > 0"
    )
    expect(rows.map((r) => r.product_id).sort()).toEqual([product.id, lockedProductId].sort())
    expect(rows.find((r) => r.product_id === lockedProductId)!.lock).toEqual(["images"])
  })
  it("auto-lock: a price-only change, written by the bulk writer, is the sync's own write and locks nothing", async () => {
    const withLocks = new Set(
      (await sql(env.db.url, "select product_id from mcs_field_lock where deleted_at is null and jsonb_array_length(coalesce(lock, '[]'::jsonb)) > 0")).map(
        (r) => r.product_id
      )
    )
    const truth = await readShopTruth(env.db.url)
    const card = cards.find((c) => truth.products.get(c.id)?.variants.every((v) => v.base.length) && !withLocks.has(truth.products.get(c.id)!.id))!
    const product = await productOf(card.id)
    // The probe: a title other than the one the sync recorded, set by SQL (no event of its own).
    // A product.updated without the sync's mark would now lock the title.
    await sql(env.db.url, "update product set title = $2 where id = $1", [product.id, "Probe title"])
    await mutateUntil(
      card.id,
      "price",
      (a, b) => JSON.stringify(a.sizes.map((s) => s.price)) + a.price !== JSON.stringify(b.sizes.map((s) => s.price)) + b.price
    )
    const [{ now: startedAt }] = await sql(env.db.url, "select now()::text as now")
    await sync()
    const now = (await catalog()).find((c) => c.id === card.id)!
    expect(judgeShop([now], await readShopTruth(env.db.url)).filter((p) => p.startsWith(`${card.id}:`) || p.startsWith(`${card.id}/`))).toEqual([])
    // Written by the bulk writer: the base prices updated in place, in one transaction.
    const written = await sql(
      env.db.url,
      `select count(*)::int as n, count(distinct p.updated_at)::int as stamps, count(*) filter (where p.created_at >= $2::timestamptz)::int as created
         from price p join product_variant_price_set l on l.price_set_id = p.price_set_id and l.deleted_at is null
         join product_variant v on v.id = l.variant_id where v.product_id = $1 and p.price_list_id is null and p.deleted_at is null and p.updated_at >= $2::timestamptz`,
      [product.id, startedAt]
    )
    expect(written[0].n).toBeGreaterThan(0)
    expect([written[0].stamps, written[0].created]).toEqual([1, 0])
    await new Promise((r) => setTimeout(r, 5_000))
    expect((await locksOf(product.id)).fields.filter((f) => f.locked)).toEqual([])

    // The probe works: an admin's save of the product (an unmarked product.updated) locks the title.
    const edited = await env.app.admin(`/admin/products/${product.id}`, { body: { title: "Probe title" } })
    expect(edited.status).toBe(200)
    const deadline = Date.now() + 60_000
    while (!field(await locksOf(product.id), "title").locked) {
      if (Date.now() > deadline) throw new Error("title was not auto-locked")
      await new Promise((r) => setTimeout(r, 500))
    }
    // Put back as it was for the next step: unlocked, the catalog's title.
    const unlocked = await env.app.admin(`/admin/catalog-sync/products/${product.id}/locks`, { body: { fields: ["title"], locked: false } })
    expect(unlocked.status).toBe(200)
    await sql(env.db.url, "update product set title = $2 where id = $1", [product.id, now.name_uk])
  })

  it("a reprice run (new pricing rules) leaves a product with locked prices alone and reprices the rest", async () => {
    const truthBefore = await readShopTruth(env.db.url)
    const lockedIds = new Set(
      (await sql(env.db.url, "select product_id from mcs_field_lock where deleted_at is null and jsonb_array_length(coalesce(lock, '[]'::jsonb)) > 0")).map(
        (r) => r.product_id
      )
    )
    const priced = cards.filter(
      (c) => truthBefore.products.get(c.id)?.variants.some((v) => v.base.length) && !lockedIds.has(truthBefore.products.get(c.id)!.id)
    )
    const [mine, other] = priced
    const product = await productOf(mine.id)
    const res = await env.app.admin(`/admin/catalog-sync/products/${product.id}/locks`, { body: { fields: ["prices"], locked: true } })
    expect(res.status).toBe(200)

    // Every price moves: a price guard asks first, confirmed here (admin-input-fuzz covers the 409).
    const { run } = await configureAndWait(env, {
      confirm_price_guards: true,
      pricing_rules: {
        base_markup_percent: "55",
        overrides: [],
        rounding: { mode: "ending", ending: "99", direction: "up" },
        minimum_margin: { amount: null, percent: null },
        crossed_out: { type: "discount", discount_percent: "15" },
      },
    })
    expect(run).toMatchObject({ status: "succeeded", mode: "reprice" })
    const truthAfter = await readShopTruth(env.db.url)
    const prices = (truth: typeof truthBefore, id: string) => truth.products.get(id)!.variants.map((v) => [v.base, v.sale])
    expect(prices(truthAfter, mine.id)).toEqual(prices(truthBefore, mine.id))
    expect(prices(truthAfter, other.id)).not.toEqual(prices(truthBefore, other.id))
  })
})
