// The rules preview route in a real Medusa app: after a sync of a small catalog with a 30 %
// markup, POST /admin/catalog-sync/pricing/preview prices the stored costs with the engine and
// compares with Medusa's current prices. Checked against the engine over rows read by SQL.
import { DEFAULT_PRICING_RULES, type PricingRules, planReprice, priceOf } from "../../src/pricing"
import { sql } from "./poll-and-query"
import { categoryPaths, storedPricesFromSql } from "./pricing-helpers"
import { configureAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(600_000)

const PRODUCTS = Number(process.env.PRICING_PREVIEW_PRODUCTS ?? 200)

describe("pricing rules preview", () => {
  let env: SyncEnv
  beforeAll(async () => {
    env = await startSyncEnv("pricing-preview", { products: PRODUCTS, seed: 12 })
    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30" })
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS })
  })
  afterAll(async () => {
    await env?.close()
  })

  const preview = (pricing_rules: unknown) => env.app.admin("/admin/catalog-sync/pricing/preview", { body: { pricing_rules } })

  it("moves no price for the rules the shop's prices came from (base markup 30 %)", async () => {
    const res = await preview({ ...DEFAULT_PRICING_RULES, base_markup_percent: "30" })
    expect(res.status).toBe(200)
    // The sync stored every priced size's cost; with the rules the prices came from, nothing moves.
    const stored = await storedPricesFromSql(env.db.url)
    expect(stored.length).toBeGreaterThan(PRODUCTS)
    expect(res.body.summary).toMatchObject({ variants: stored.length, changed: 0, moved: 0 })
    expect(res.body.sample).toHaveLength(10)
    for (const row of res.body.sample) expect(row.next.amount).toBe(row.current.amount)
  })

  it("a category override and rounding: the summary and every sampled row equal the engine over the SQL rows", async () => {
    // The top-level category with the most stored sizes under it.
    const stored = await storedPricesFromSql(env.db.url)
    const counts = new Map<string, number>()
    for (const v of stored) if (v.context.categoryPath[0]) counts.set(v.context.categoryPath[0], (counts.get(v.context.categoryPath[0]) ?? 0) + 1)
    const [top] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]
    const rules: PricingRules = {
      ...DEFAULT_PRICING_RULES,
      base_markup_percent: "30",
      overrides: [{ type: "category", category_id: top, markup_percent: "45" }],
      rounding: { mode: "ending", ending: "99", direction: "up" },
    }
    const res = await preview(rules)
    expect(res.status).toBe(200)
    const expected = planReprice(stored, rules).summary
    expect(res.body.summary).toEqual(expected)
    expect(expected.up).toBeGreaterThan(0)
    expect(expected.moved).toBe(stored.filter((v) => v.cost !== null && priceOf(v.cost, v.context, rules).amount !== v.current.amount).length)

    const bySize = new Map(stored.map((v) => [`${v.catalog_id}:${v.size}`, v]))
    expect(res.body.sample).toHaveLength(10)
    // One product the override decides is in the sample, inherited from the top category when deeper.
    expect(res.body.sample.some((r: any) => r.rule.type === "category" && r.rule.category_id === top)).toBe(true)
    for (const row of res.body.sample) {
      const v = bySize.get(`${row.catalog_id}:${row.size}`)!
      expect(row.cost).toBe(v.cost)
      expect(row.current).toEqual(v.current)
      const engine = priceOf(v.cost!, v.context, rules)
      expect(row.next).toEqual({ amount: engine.amount, crossed_out: engine.crossedOut })
      expect(row.next.amount.endsWith("99.00")).toBe(true)
    }
    // The preview wrote nothing.
    expect(planReprice(await storedPricesFromSql(env.db.url), { ...DEFAULT_PRICING_RULES, base_markup_percent: "30" }).summary.moved).toBe(0)
  })

  it("a product whose prices are locked: its sizes are held, not moves, as the reprice run keeps them (issue 43)", async () => {
    const stored = await storedPricesFromSql(env.db.url)
    const [{ catalog_id, product_id }] = await sql<{ catalog_id: string; product_id: string }>(
      env.db.url,
      "select vc.catalog_id, pv.product_id from mcs_variant_cost vc join product_variant pv on pv.id = vc.variant_id where vc.deleted_at is null and vc.cost is not null order by vc.catalog_id limit 1"
    )
    const lockedSizes = stored.filter((v) => v.catalog_id === catalog_id && v.cost !== null).length
    expect(lockedSizes).toBeGreaterThan(0)
    const lock = await env.app.admin(`/admin/catalog-sync/products/${product_id}/locks`, { body: { fields: ["prices"], locked: true } })
    expect(lock.status).toBe(200)
    try {
      const rules: PricingRules = { ...DEFAULT_PRICING_RULES, base_markup_percent: "60" }
      const res = await preview(rules)
      expect(res.status).toBe(200)
      const all = planReprice(stored, rules).summary
      const expected = planReprice(
        stored.map((v) => (v.catalog_id === catalog_id ? { ...v, prices_locked: true } : v)),
        rules
      ).summary
      expect(expected.held_by_lock).toBe(lockedSizes)
      expect(res.body.summary).toEqual(expected)
      expect(res.body.summary.moved).toBe(all.moved - lockedSizes)
      // Saved unchanged (+30 %), the locked product alone would differ: nothing moves.
      expect((await preview({ ...DEFAULT_PRICING_RULES, base_markup_percent: "30" })).body.summary).toMatchObject({ moved: 0, changed: 0 })
    } finally {
      await env.app.admin(`/admin/catalog-sync/products/${product_id}/locks`, { body: { fields: ["prices"], locked: false } })
    }
  })

  it("refuses invalid rules naming the field, with no preview", async () => {
    const res = await preview({ ...DEFAULT_PRICING_RULES, base_markup_percent: "30", overrides: [{ type: "brand", brand_id: "7", markup_percent: "5000" }] })
    expect(res.status).toBe(400)
    expect(res.body.field).toBe("pricing_rules.overrides[0].markup_percent")
    expect(res.body.summary).toBeUndefined()
    const missing = await env.app.admin("/admin/catalog-sync/pricing/preview", { body: {} })
    expect([missing.status, missing.body.field]).toEqual([400, "pricing_rules"])
  })

  it("lists the synced category tree and brands by catalog id for the pickers", async () => {
    const res = await env.app.admin("/admin/catalog-sync/pricing/references")
    expect(res.status).toBe(200)
    const paths = await categoryPaths(env.db.url)
    expect(res.body.categories).toHaveLength(paths.size)
    for (const c of res.body.categories) {
      const path = paths.get(c.id)!
      expect(c.parent_id).toBe(path.length > 1 ? path[path.length - 2] : null)
    }
    const brands = await sql(env.db.url, "select catalog_id from mcs_brand where deleted_at is null")
    expect(res.body.brands.map((b: any) => b.id).sort()).toEqual(brands.map((b) => b.catalog_id).sort())
  })
})
