// The shop's own pricing rules in a real Medusa app: the sync stores every size's cost in the
// plugin's table (never in product metadata) and, with a 30 % markup saved in the settings (the
// rules' base markup), prices exactly as the API does with that markup; saving rules (a category override inherited down the tree, rounding, a crossed-out
// discount) runs a reprice that sets every price in Medusa to the engine's result for the
// stored cost, with zero requests to the catalog; a full pass after it writes nothing. Size:
// PRICING_REPRICE_PRODUCTS (default 400, about 70 s; the figure, 2,000, passed in about
// 7 min on a loaded machine, too long for every CI run).
import type { ProductCard } from "../../src/catalog-client/schemas"
import { priceOf } from "../../src/pricing/engine"
import type { PricingRules } from "../../src/pricing/rules"
import { variantAmounts } from "../../src/sync/card-details"
import { distinctSizes } from "../../src/sync/map-card"
import { configure, sql } from "./poll-and-query"
import { shopPricesByVariant, twoDecimals } from "./pricing-helpers"
import { compareShop, configureAndWait, readCatalog, readShop, runAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(1_800_000)

const PRODUCTS = Number(process.env.PRICING_REPRICE_PRODUCTS ?? 400)

/** The catalog category tree as the shop's categories hold it: root → leaf path of a catalog category id. */
async function categoryPaths(dbUrl: string): Promise<(id: string | null) => string[]> {
  const rows: { id: string; external_id: string; parent: string | null }[] = await sql(
    dbUrl,
    `select c.id, c.external_id, p.external_id as parent from product_category c left join product_category p on p.id = c.parent_category_id
      where c.deleted_at is null and c.metadata->>'source' is not null`
  )
  const parent = new Map(rows.map((r) => [r.external_id, r.parent]))
  return (id) => {
    const path: string[] = []
    for (let at: string | null | undefined = id; at && !path.includes(at); at = parent.get(at)) path.unshift(at)
    return path
  }
}

/** Sizes of a card with their cost, as the sync keys them ("" for a card without sizes). */
function sizesOf(card: ProductCard): { key: string; cost: string | null | undefined }[] {
  const sizes = distinctSizes(card)
  return sizes.length ? sizes.map((s) => ({ key: s.size.trim(), cost: s.cost_price })) : [{ key: "", cost: card.cost_price }]
}

describe("pricing rules: stored costs and a reprice with zero API requests", () => {
  let env: SyncEnv
  let cards: ProductCard[]
  beforeAll(async () => {
    env = await startSyncEnv("pricing-reprice", { products: PRODUCTS, seed: 23 })
  })
  afterAll(async () => {
    await env?.close()
  })

  it(`a full sync of ${PRODUCTS} products stores every size's cost privately and prices as the API does`, async () => {
    const started = Date.now()
    const { saved, run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    console.log(`pricing-reprice: full sync of ${PRODUCTS} products in ${Date.now() - started} ms`)
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS, skipped: 0 })
    // The markup is saved as the shop's rules (their first revision); the catalog was asked for costs only.
    expect(saved.settings).toMatchObject({ pricing_rules: { base_markup_percent: "30" }, pricing_rules_saved: true, pricing_rules_revision: 1 })
    cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey)
    expect(compareShop(cards, await readShop(env.db.url))).toEqual([])

    const stored: { catalog_id: string; size_key: string; cost: string | null; price_calculation: string; variant_id: string | null }[] = await sql(
      env.db.url,
      "select catalog_id, size_key, cost, price_calculation, variant_id from mcs_variant_cost where deleted_at is null"
    )
    const byKey = new Map(stored.map((r) => [`${r.catalog_id}/${r.size_key}`, r]))
    const expected = cards.flatMap((c) => sizesOf(c).map((s) => ({ key: `${c.id}/${s.key}`, cost: s.cost ?? null })))
    expect(stored).toHaveLength(expected.length)
    for (const e of expected) {
      const row = byKey.get(e.key)
      expect(row && { cost: twoDecimals(row.cost), calc: row.price_calculation, variant: !!row.variant_id }).toEqual({
        cost: twoDecimals(e.cost),
        calc: "max",
        variant: true,
      })
    }
    // Never public: no product or variant metadata key names a cost (descriptions may say "cost").
    const keys = await sql(
      env.db.url,
      `select count(*)::int as n from (
         select jsonb_object_keys(metadata) as k from product where metadata is not null
         union all select jsonb_object_keys(metadata) from product_variant where metadata is not null) m
        where k ilike '%cost%'`
    )
    expect(keys[0].n).toBe(0)
  })

  it("saving rules reprices every variant from the stored cost, exactly as the engine says, with 0 API requests", async () => {
    const pathOf = await categoryPaths(env.db.url)
    // An override on the root of the most common category's tree: inherited by every subcategory.
    const roots = new Map<string, number>()
    for (const c of cards) {
      const root = pathOf(c.category_id ?? null)[0]
      if (root) roots.set(root, (roots.get(root) ?? 0) + 1)
    }
    const [root] = [...roots.entries()].sort((a, b) => b[1] - a[1])[0]
    expect(cards.some((c) => c.category_id !== root && pathOf(c.category_id ?? null)[0] === root)).toBe(true)
    const rules: PricingRules = {
      base_markup_percent: "30",
      overrides: [{ type: "category", category_id: root, markup_percent: "55" }],
      rounding: { mode: "ending", ending: "99", direction: "up" },
      minimum_margin: { amount: null, percent: null },
      crossed_out: { type: "discount", discount_percent: "15" },
    }
    const requestsBefore = (env.sb.control.stats() as { requests: number }).requests
    const started = Date.now()
    // Every price moves: a price guard asks first, confirmed here (admin-input-fuzz covers the 409).
    const { saved, run } = await configureAndWait(env, { pricing_rules: rules, confirm_price_guards: true })
    console.log(`pricing-reprice: reprice of ${PRODUCTS} products in ${Date.now() - started} ms (${run?.progress?.prices_changed} prices changed)`)
    expect(saved).toMatchObject({ pricing_changed: false, needs_full_pass: false, rules_changed: true })
    expect(saved.settings).toMatchObject({ pricing_rules: rules, pricing_rules_revision: 2 })
    expect(run).toMatchObject({ status: "succeeded", mode: "reprice", trigger: "rules_changed", requests_used: 0, items_seen: PRODUCTS })
    expect(run!.updated).toBeGreaterThan(PRODUCTS / 2)
    expect((env.sb.control.stats() as { requests: number }).requests).toBe(requestsBefore)

    const prices = await shopPricesByVariant(env.db.url)
    const wrong: string[] = []
    let compared = 0
    let inherited = 0
    for (const card of cards) {
      const categoryPath = pathOf(card.category_id ?? null)
      if (categoryPath[0] === root && card.category_id !== root) inherited++
      for (const size of sizesOf(card)) {
        const key = `${card.id}/${size.key}`
        const want =
          size.cost == null
            ? { amount: null, saleAmount: null }
            : (() => {
                const r = priceOf(size.cost!, { categoryPath, brandId: card.brand?.id ?? null }, rules)
                return variantAmounts({ price: r.amount, old_price: r.crossedOut })
              })()
        const got = prices.get(key)
        compared++
        if (twoDecimals(got?.base ?? null) !== want.amount || twoDecimals(got?.sale ?? null) !== want.saleAmount) {
          wrong.push(`${key}: base ${got?.base} sale ${got?.sale}, want ${JSON.stringify(want)}`)
        }
      }
    }
    expect(inherited).toBeGreaterThan(0)
    expect(compared).toBeGreaterThan(PRODUCTS)
    expect(wrong.slice(0, 10)).toEqual([])

    // In the run history as a run of kind reprice.
    const history = await env.app.admin("/admin/catalog-sync/runs")
    expect(history.body.runs.some((r: { id: string; mode: string }) => r.id === run!.id && r.mode === "reprice")).toBe(true)
    // The product widget's last change names the run that made it: a reprice by the shop's rules, not a catalog change.
    const [repriced] = await sql(env.db.url, "select product_id from mcs_sync_run_change where run_id = $1 and price_changed limit 1", [run!.id])
    const changes = await env.app.admin(`/admin/catalog-sync/products/${repriced.product_id}/changes`)
    expect(changes.body.changes[0]).toMatchObject({ run_id: run!.id, run_mode: "reprice", run_trigger: "rules_changed", price_changed: true })

    // A second save of the same rules changes nothing and starts nothing.
    const again = await configureAndWait(env, { pricing_rules: rules })
    expect(again.saved).toMatchObject({ rules_changed: false })
    expect(again.run).toBeNull()
  })

  it("a full resync after the reprice writes no product and changes no price (neither rewrites nor reverts)", async () => {
    const before = await shopPricesByVariant(env.db.url)
    const [{ now: startedAt }] = await sql(env.db.url, "select now()::text as now")
    const full = await runAndWait(env, "full")
    expect(full).toMatchObject({ status: "succeeded", mode: "full", created: 0, updated: 0, removed: 0, swept: 0, items_seen: PRODUCTS })
    // Medusa's price rows: the same amounts, and not one written again.
    expect(await shopPricesByVariant(env.db.url)).toEqual(before)
    const written = await sql(env.db.url, "select count(*)::int as n from price where updated_at >= $1::timestamptz or created_at >= $1::timestamptz", [
      startedAt,
    ])
    expect(written[0].n).toBe(0)
    const products = await sql(
      env.db.url,
      "select count(*)::int as n from product where updated_at >= $1::timestamptz and metadata->>'catalog_sync' = 'true'",
      [startedAt]
    )
    expect(products[0].n).toBe(0)
  })

  it("invalid rules answer 400 naming the field and keep the saved rules", async () => {
    const res = await env.app.admin("/admin/catalog-sync/settings", {
      body: {
        pricing_rules: { base_markup_percent: "30", overrides: [{ type: "category", category_id: "1", markup_percent: "abc" }], rounding: { mode: "none" } },
      },
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).toContain("pricing_rules.overrides[0].markup_percent")
    const bad = await env.app.admin("/admin/catalog-sync/settings", { body: { brake: { remove_percent: 120 } } })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain("brake.remove_percent")
    const get = await env.app.admin("/admin/catalog-sync/settings")
    expect(get.body.settings).toMatchObject({
      pricing_rules_revision: 2,
      pricing_rules: { overrides: [{ type: "category", markup_percent: "55" }] },
      brake: { remove_percent: "20", price_drop_share_percent: "10", price_drop_percent: "30" },
    })
  })

  it("a price_calculation change needs a full pass and says so", async () => {
    // The full pass it queues is not awaited (CI time); the answer is what is checked.
    const saved = await configure(env.app, { price_calculation: "min" })
    expect(saved).toMatchObject({ needs_full_pass: true, rules_changed: false, run: { mode: "full" } })
    expect(saved.message).toMatch(/price_calculation/)
  })
})
