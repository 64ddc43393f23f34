// Data rules and "nothing left behind" against a real Medusa app, on both write paths. The
// sandbox's cards reach the app over loopback HTTP through a proxy that adds hostile items:
// money of "-0.00", "-0" and JSON -0.0 (stored as 0.00 on a published product, never a draft
// with a variant without price), and one id twice in one page, version 3 before version 2 (the
// higher version is written, the duplicate reported on the run). Then products and a size
// leave over a few rounds (a removal item, the sandbox's removals, a sweep after a lost
// cursor), and after each round plain SQL finds no live plugin row pointing at a removed
// product or variant. Everything is checked on Medusa's tables, not the plugin's counts.
import { parse } from "lossless-json"
import { configureAndWait, runAndWait, startCatalogProxy, startSyncEnv, type SyncEnv } from "./sync-helpers"
import { sql } from "./poll-and-query"
import { cardJson, item } from "./hostile-catalog"

jest.setTimeout(1_800_000)

const PRODUCTS = 120
const WRITE_PATHS = ["bulk", "workflows"] as const

// Far from the sandbox's ids and from hostile-catalog.ts's.
const ZERO_ID = "8100000000000000001"
const DUP_ID = "8100000000000000002"

const q = JSON.stringify
const zeroCard = item(
  ZERO_ID,
  cardJson(ZERO_ID, {
    cost_price: "-0.0",
    price: q("-0.00"),
    old_price: q("-0"),
    sizes: `[{"size":"40","stock":2,"cost_price":"-0.00","price":-0.0,"old_price":"-0"},{"size":"41","stock":1,"cost_price":-0,"price":"-0"}]`,
  })
)
const dupCard = (version: number, title: string, price: string) =>
  item(
    DUP_ID,
    cardJson(DUP_ID, {
      name_uk: q(title),
      sync_version: String(version),
      cost_price: q(price),
      price: q(price),
      sizes: `[{"size":"40","stock":2,"cost_price":${q(price)},"price":${q(price)}}]`,
    })
  )

/** Live plugin rows that point at a product or variant the shop no longer has (empty: none). */
async function rowsLeftBehind(databaseUrl: string): Promise<string[]> {
  const rows = await sql(
    databaseUrl,
    `select 'cost row of a product not in the shop: ' || c.catalog_id || '/' || c.size_key as problem
       from mcs_variant_cost c
      where c.deleted_at is null and not exists (
        select 1 from mcs_product_map m join product p on p.id = m.product_id and p.deleted_at is null
         where m.catalog_id = c.catalog_id and m.deleted_at is null)
     union all
     select 'cost row of a deleted variant: ' || c.catalog_id || '/' || c.size_key
       from mcs_variant_cost c
      where c.deleted_at is null and c.variant_id is not null
        and not exists (select 1 from product_variant v where v.id = c.variant_id and v.deleted_at is null)
     union all
     select 'map row of a deleted product: ' || m.catalog_id
       from mcs_product_map m
      where m.deleted_at is null and m.product_id is not null
        and not exists (select 1 from product p where p.id = m.product_id and p.deleted_at is null)
     union all
     select 'map row of a deleted variant: ' || m.catalog_id || '/' || e.key
       from mcs_product_map m, jsonb_each_text(coalesce(m.variant_ids, '{}'::jsonb)) e
      where m.deleted_at is null and not exists (select 1 from product_variant v where v.id = e.value and v.deleted_at is null)
     union all
     select 'map row of a deleted inventory item: ' || m.catalog_id || '/' || e.key
       from mcs_product_map m, jsonb_each_text(coalesce(m.inventory_item_ids, '{}'::jsonb)) e
      where m.deleted_at is null and not exists (select 1 from inventory_item i where i.id = e.value and i.deleted_at is null)
     union all
     select 'field lock of a deleted product: ' || f.product_id
       from mcs_field_lock f
      where f.deleted_at is null and not exists (select 1 from product p where p.id = f.product_id and p.deleted_at is null)
     union all
     select 'pending removal of a deleted product: ' || r.product_id
       from mcs_pending_removal r
      where r.deleted_at is null and not exists (select 1 from product p where p.id = r.product_id and p.deleted_at is null)
     union all
     select 'image reference of a removed product: ' || r.catalog_id
       from mcs_mirrored_image_ref r
      where r.deleted_at is null and not exists (
        select 1 from mcs_product_map m where m.catalog_id = r.catalog_id and m.deleted_at is null and m.status <> 'removed')`
  )
  return rows.map((r) => r.problem as string)
}

/** The live variants of a catalog product with their base price in uah (null: none). */
async function variantPrices(databaseUrl: string, catalogId: string) {
  return sql(
    databaseUrl,
    `select p.status, v.title, pr.raw_amount->>'value' as amount
       from product p join product_variant v on v.product_id = p.id and v.deleted_at is null
       left join product_variant_price_set l on l.variant_id = v.id and l.deleted_at is null
       left join price pr on pr.price_set_id = l.price_set_id and pr.deleted_at is null and pr.price_list_id is null and pr.currency_code = 'uah'
      where p.external_id = $1 and p.deleted_at is null
      order by v.title`,
    [catalogId]
  )
}

const liveCostRows = async (databaseUrl: string, catalogIds: string[]) =>
  Number((await sql(databaseUrl, "select count(*) as n from mcs_variant_cost where catalog_id = any($1) and deleted_at is null", [catalogIds]))[0].n)

describe.each(WRITE_PATHS)("data rules and nothing left behind, write path %s", (writePath) => {
  let env: SyncEnv
  let proxy: Awaited<ReturnType<typeof startCatalogProxy>>
  let firstRun: any
  /** Items the proxy adds to the next changes page it serves, then forgets. */
  let addOnce: string[] = []

  beforeAll(async () => {
    env = await startSyncEnv(`data-rules-${writePath}`, { products: PRODUCTS, seed: 83 }, { CATALOG_SYNC_WRITE_PATH: writePath })
    proxy = await startCatalogProxy(env.sb.baseUrl)
    proxy.hooks.rewriteChanges = (body) => {
      if (addOnce.length) {
        body.data = [...body.data, ...addOnce.map((json) => parse(json))]
        addOnce = []
      }
      return body
    }
    // One page of 120 cards plus the hostile items; the removal brake out of the way (its own specs judge it).
    addOnce = [zeroCard, dupCard(3, "Version three", "130.00"), dupCard(2, "Version two", "90.00")]
    ;({ run: firstRun } = await configureAndWait(env, { base_url: proxy.url, api_key: env.sb.apiKey, markup_percent: "30", brake: { remove_percent: "100" } }))
  })
  afterAll(async () => {
    await proxy?.close()
    await env?.close()
  })

  it("money of -0 is stored as 0.00 on a published product with every size priced, and nothing is reported", async () => {
    expect(firstRun).toMatchObject({ status: "succeeded" })
    expect(firstRun.rejected_items.filter((r: any) => r.id === ZERO_ID)).toEqual([])
    const rows = await variantPrices(env.db.url, ZERO_ID)
    expect(rows.map((r) => [r.status, r.title, r.amount === null ? null : Number(r.amount)])).toEqual([
      ["published", "40", 0],
      ["published", "41", 0],
    ])
    // The stored costs the shop's rules reprice from are zero too.
    const costs = await sql(env.db.url, "select size_key, cost, amount from mcs_variant_cost where catalog_id = $1 and deleted_at is null order by size_key", [
      ZERO_ID,
    ])
    expect(costs.map((c) => [c.size_key, c.cost, Number(c.amount)])).toEqual([
      ["40", "0.00", 0],
      ["41", "0.00", 0],
    ])
  })

  it("one id twice in a page: the higher sync_version is written though it came first, and the duplicate is reported", async () => {
    const [product] = await sql(env.db.url, "select title, status from product where external_id = $1 and deleted_at is null", [DUP_ID])
    expect(product).toEqual({ title: "Version three", status: "published" })
    const [map] = await sql(env.db.url, "select sync_version from mcs_product_map where catalog_id = $1 and deleted_at is null", [DUP_ID])
    expect(Number(map.sync_version)).toBe(3)
    const costs = await sql(env.db.url, "select cost from mcs_variant_cost where catalog_id = $1 and deleted_at is null", [DUP_ID])
    expect(costs).toEqual([{ cost: "130.00" }])
    const notices = firstRun.rejected_items.filter((r: any) => r.id === DUP_ID)
    expect(notices).toEqual([
      expect.objectContaining({ id: DUP_ID, field: "id", kept: true, reason: expect.stringMatching(/sync_version 3 kept, sync_version 2 dropped/) }),
    ])
    expect(await rowsLeftBehind(env.db.url)).toEqual([])
  })

  it("products and a size removed over three rounds leave no live plugin row pointing at them", async () => {
    const candidates = env.sb.state.catalog.liveProducts().filter((p) => p.sizes.length >= 3 && p.suppliers.every((s) => s.baseCost !== null))
    expect(candidates.length).toBeGreaterThanOrEqual(6)
    const [sized, lockedGone, gone2, gone3, gone4, sized2] = candidates.map((p) => p.idText)
    const shopIdOf = async (catalogId: string) =>
      (await sql(env.db.url, "select id from product where external_id = $1 and deleted_at is null", [catalogId]))[0].id as string

    // A field lock on a product that will go: the plugin's row keyed by the shop's product id.
    const locked = await env.app.admin(`/admin/catalog-sync/products/${await shopIdOf(lockedGone)}/locks`, { body: { fields: ["title"], locked: true } })
    expect(locked.status).toBe(200)
    expect(Number((await sql(env.db.url, "select count(*) as n from mcs_field_lock where deleted_at is null"))[0].n)).toBeGreaterThan(0)
    // Each product about to go has cost rows now: the check after removal is not empty by chance.
    for (const id of [lockedGone, gone2, gone3, gone4, DUP_ID, ZERO_ID]) expect(await liveCostRows(env.db.url, [id])).toBeGreaterThan(0)

    // Round 1: two products off sale and a size gone from a kept product.
    const droppedSize = env.sb.state.catalog.findLive(sized)!.sizes.at(-1)!
    env.sb.state.mutator.setSizes(sized, env.sb.state.catalog.findLive(sized)!.sizes.slice(0, -1))
    env.sb.control.mutate({ remove_ids: [lockedGone, gone2] })
    expect(await runAndWait(env, "changes")).toMatchObject({ status: "succeeded" })
    expect(await rowsLeftBehind(env.db.url)).toEqual([])
    expect(await liveCostRows(env.db.url, [lockedGone, gone2])).toBe(0)
    expect(
      await sql(env.db.url, "select 1 from mcs_variant_cost where catalog_id = $1 and size_key = $2 and deleted_at is null", [sized, droppedSize])
    ).toEqual([])
    const [sizedMap] = await sql(env.db.url, "select variant_ids from mcs_product_map where catalog_id = $1 and deleted_at is null", [sized])
    expect(Object.keys(sizedMap.variant_ids)).not.toContain(droppedSize)

    // Round 2: a removal item for the product written from the duplicate, one more off sale, another size gone.
    addOnce = [`{"status":"removed","id":${DUP_ID}}`]
    env.sb.state.mutator.setSizes(sized2, env.sb.state.catalog.findLive(sized2)!.sizes.slice(1))
    env.sb.control.mutate({ remove_ids: [gone3] })
    expect(await runAndWait(env, "changes")).toMatchObject({ status: "succeeded" })
    expect(await rowsLeftBehind(env.db.url)).toEqual([])
    expect(await liveCostRows(env.db.url, [DUP_ID, gone3])).toBe(0)

    // Round 3: the cursor is lost; the run starts over and its sweep removes what the catalog no longer
    // serves (the -0 card, never served again), with one more product off sale meanwhile.
    env.sb.control.mutate({ remove_ids: [gone4] })
    env.sb.control.rotateCursorSecret()
    expect(await runAndWait(env, "changes")).toMatchObject({ status: "succeeded" })
    expect(await rowsLeftBehind(env.db.url)).toEqual([])
    const removed = [lockedGone, gone2, gone3, gone4, DUP_ID, ZERO_ID]
    expect(await liveCostRows(env.db.url, removed)).toBe(0)
    // The map marks each removed: no product, no variants.
    const maps = await sql(
      env.db.url,
      "select catalog_id, status, product_id, variant_ids from mcs_product_map where catalog_id = any($1) and deleted_at is null",
      [removed]
    )
    expect(maps.map((m) => [m.status, m.product_id, m.variant_ids])).toEqual(removed.map(() => ["removed", null, null]))
    expect(await sql(env.db.url, "select external_id from product where external_id = any($1) and deleted_at is null", [removed])).toEqual([])
  })
})
