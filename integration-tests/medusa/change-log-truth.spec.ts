// Change logs that tell the truth, in a real Medusa app, checked against Medusa's price tables
// (SQL) and what the sandbox serves: a product whose prices the shop locked is logged as "held"
// with the catalog's selling price, never as a price change, in the run's log and the product
// widget's last change, and the lock's "Catalog now" is the catalog's selling price per size (not
// the crossed-out one); a reprice run logs exactly the products whose Medusa prices it changed,
// with the selling price before and after as Medusa held them.
import Decimal from "decimal.js"
import { servedSellingPrice } from "../harness/served-prices"
import { expectedOf, readShopTruth, type ShopTruth, type TruthCard } from "../harness/shop-truth"
import { sql } from "./poll-and-query"
import { configureAndWait, readCatalog, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(1_200_000)

const PRODUCTS = 60
// A crossed-out price on every priced size, so selling and crossed-out prices differ.
const PRICING = { price_calculation: "max", markup_percent: "30", discount_percent: null, old_price_markup_percent: "60" } as const

const plain = (text: string | undefined) => (text === undefined ? null : new Decimal(text.replace(/^uah:/, "")).toFixed(2))

/** A product's selling price as Medusa holds it: the lowest over its variants of the sale price, else the base. */
function shopSelling(truth: ShopTruth, catalogId: string): string | null {
  let low: Decimal | null = null
  for (const v of truth.products.get(catalogId)?.variants ?? []) {
    const text = plain(v.sale[0] ?? v.base[0])
    if (text === null) continue
    if (low === null || new Decimal(text).lessThan(low)) low = new Decimal(text)
  }
  return low === null ? null : low.toFixed(2)
}

const pricesOf = (truth: ShopTruth, catalogId: string) => JSON.stringify(truth.products.get(catalogId)?.variants.map((v) => [v.base, v.sale]) ?? null)

describe("change logs tell the truth", () => {
  let env: SyncEnv
  const served = async () => new Map(((await readCatalog(env.sb.baseUrl, env.sb.apiKey, PRICING as never)) as unknown as TruthCard[]).map((c) => [c.id, c]))

  beforeAll(async () => {
    env = await startSyncEnv("change-log-truth", { products: PRODUCTS, seed: 61 })
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, ...PRICING })
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS })
  })
  afterAll(async () => {
    await env?.close()
  })

  it("a locked price is logged as held with the catalog's selling price, never as a change; Catalog now is the selling price per size", async () => {
    const cards = await served()
    const card = [...cards.values()].find((c) => expectedOf(c).variants.filter((v) => v.sale.length).length >= 2)!
    expect(card).toBeDefined()
    const [{ product_id }] = await sql(env.db.url, "select product_id from mcs_product_map where catalog_id = $1 and deleted_at is null", [card.id])
    expect((await env.app.admin(`/admin/catalog-sync/products/${product_id}/locks`, { body: { fields: ["prices"], locked: true } })).status).toBe(200)
    const before = await readShopTruth(env.db.url)

    // The catalog's cost of this product goes up by half: its served prices move.
    env.sb.control.mutate({ scale_ids: [card.id], scale_percent: 150 })
    const moved = (await served()).get(card.id)!
    expect(servedSellingPrice(moved)).not.toBe(servedSellingPrice(card))
    const run = await runAndWait(env, "changes")
    expect(run).toMatchObject({ status: "succeeded" })

    // Medusa still sells at the shop's prices.
    const after = await readShopTruth(env.db.url)
    expect(pricesOf(after, card.id)).toBe(pricesOf(before, card.id))
    const rows = await sql(env.db.url, "select price_changed, price_before, price_after, held from mcs_sync_run_change where run_id = $1 and catalog_id = $2", [
      run.id,
      card.id,
    ])
    expect(rows).toEqual([{ price_changed: false, price_before: null, price_after: null, held: { prices: servedSellingPrice(moved) } }])
    // The product widget's last change says the same.
    const changes = await env.app.admin(`/admin/catalog-sync/products/${product_id}/changes`)
    expect(changes.body.changes[0]).toMatchObject({
      run_id: run.id,
      price_changed: false,
      price_before: null,
      price_after: null,
      held: { prices: servedSellingPrice(moved) },
    })
    // "Catalog now": the catalog's selling price per size, which is not the crossed-out one.
    const locks = await env.app.admin(`/admin/catalog-sync/products/${product_id}/locks`)
    const prices = locks.body.locks.fields.find((f: { field: string }) => f.field === "prices")
    const selling = Object.fromEntries(expectedOf(moved).variants.map((v) => [v.size ?? "", plain(v.sale[0] ?? v.base[0])]))
    expect(Object.fromEntries(Object.entries(prices.catalog_value as Record<string, string>).map(([k, v]) => [k, plain(v)]))).toEqual(selling)
  })

  it("a reprice run logs exactly the products whose Medusa prices it changed, with the selling price before and after", async () => {
    const before = await readShopTruth(env.db.url)
    const { run } = await configureAndWait(env, {
      pricing_rules: {
        base_markup_percent: "45",
        overrides: [],
        rounding: { mode: "ending", ending: "99", direction: "up" },
        minimum_margin: { amount: null, percent: null },
        crossed_out: { type: "discount", discount_percent: "15" },
      },
      // Every price moves: the price guard asks first, and this is the answer.
      confirm_price_guards: true,
    })
    expect(run).toMatchObject({ status: "succeeded", mode: "reprice" })
    const after = await readShopTruth(env.db.url)
    const changed = [...before.products.keys()].filter((id) => pricesOf(before, id) !== pricesOf(after, id)).sort()
    expect(changed.length).toBeGreaterThan(PRODUCTS / 2)
    const rows = await sql(
      env.db.url,
      "select catalog_id, kind, price_changed, price_before, price_after from mcs_sync_run_change where run_id = $1 order by catalog_id",
      [run!.id]
    )
    expect(rows.map((r) => r.catalog_id)).toEqual(changed)
    for (const r of rows) {
      expect(r).toEqual({
        catalog_id: r.catalog_id,
        kind: "updated",
        price_changed: true,
        price_before: shopSelling(before, r.catalog_id),
        price_after: shopSelling(after, r.catalog_id),
      })
    }
    expect(run!.updated).toBe(changed.length)
    const page = await env.app.admin(`/admin/catalog-sync/runs/${run!.id}/changes?limit=200`)
    expect(page.body.count).toBe(changed.length)
  })
})
