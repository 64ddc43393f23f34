// One pricing system in a real Medusa app: the catalog is asked for costs only, markup and
// discount are the shop's rules. A shop upgraded from stored API pricing parameters (markup and
// discount in the settings row, a changes cursor made with them) keeps every price exactly, as the
// API served it, and continues its cursor with no full pass (its next full pass asks for costs only
// and writes no price); a markup saved through the settings route is a reprice run with 0 requests
// at the sandbox. Size: PRICING_ONE_SYSTEM_PRODUCTS (default 120).
import type { ProductCard } from "../../src/catalog-client/schemas"
import { priceOf } from "../../src/pricing/engine"
import { DEFAULT_PRICING_RULES, type PricingRules } from "../../src/pricing/rules"
import { variantAmounts } from "../../src/sync/card-details"
import { distinctSizes } from "../../src/sync/map-card"
import { sql } from "./poll-and-query"
import { shopPricesByVariant, twoDecimals, type ShopAmounts } from "./pricing-helpers"
import { configureAndWait, readCatalog, runAndWait, startSyncEnv, syncState, type SyncEnv } from "./sync-helpers"

jest.setTimeout(1_800_000)

const PRODUCTS = Number(process.env.PRICING_ONE_SYSTEM_PRODUCTS ?? 120)
/** What an older version sent with every request (and stored in the settings row and with the cursor). */
const LEGACY = { price_calculation: "max", markup_percent: "30", discount_percent: "20", old_price_markup_percent: null } as const
const COSTS_ONLY = { price_calculation: "max" } as const

type Amounts = ShopAmounts

/** Every catalog variant's base price and sale-list price, from Medusa's price tables. */

/** Each size of a card ("" for a card without sizes) with its cost and the prices the API served. */
function sizesOf(
  card: ProductCard
): { key: string; cost: string | null | undefined; price: string | null | undefined; old_price: string | null | undefined }[] {
  const sizes = distinctSizes(card)
  return sizes.length
    ? sizes.map((s) => ({ key: s.size.trim(), cost: s.cost_price, price: s.price, old_price: s.old_price }))
    : [{ key: "", cost: card.cost_price, price: card.price, old_price: card.old_price }]
}

/** Differences between the shop's prices and `want` per variant (empty = equal). */
function differences(shop: Map<string, Amounts>, want: Map<string, Amounts>): string[] {
  const out: string[] = []
  for (const [key, w] of want) {
    const got = shop.get(key)
    if (!got || got.base !== w.base || got.sale !== w.sale) out.push(`${key}: shop ${JSON.stringify(got)} != ${JSON.stringify(w)}`)
  }
  if (shop.size !== want.size) out.push(`shop has ${shop.size} variants, catalog ${want.size}`)
  return out
}

/** The prices the API itself served with the old parameters (price and old_price per size). */
function servedPrices(cards: ProductCard[]): Map<string, Amounts> {
  const out = new Map<string, Amounts>()
  for (const card of cards) {
    for (const s of sizesOf(card)) {
      const amounts = variantAmounts({ price: s.price ?? null, old_price: s.old_price ?? null })
      out.set(`${card.id}/${s.key}`, { base: twoDecimals(amounts.amount), sale: twoDecimals(amounts.saleAmount) })
    }
  }
  return out
}

/** The prices the rules give each stored cost (base markup and crossed-out rule only: no category or brand part). */
function rulePrices(cards: ProductCard[], rules: PricingRules): Map<string, Amounts> {
  const out = new Map<string, Amounts>()
  for (const card of cards) {
    for (const s of sizesOf(card)) {
      const r = s.cost == null ? null : priceOf(s.cost, { categoryPath: [], brandId: null }, rules)
      const amounts = r ? variantAmounts({ price: r.amount, old_price: r.crossedOut }) : { amount: null, saleAmount: null }
      out.set(`${card.id}/${s.key}`, { base: twoDecimals(amounts.amount), sale: twoDecimals(amounts.saleAmount) })
    }
  }
  return out
}

const requests = (env: SyncEnv) => (env.sb.control.stats() as { requests: number }).requests

describe("one pricing system: costs from the catalog, markup and discount as the shop's rules", () => {
  let env: SyncEnv
  beforeAll(async () => {
    env = await startSyncEnv("pricing-one-system", { products: PRODUCTS, seed: 41 })
  })
  afterAll(async () => {
    await env?.close()
  })

  it("a shop upgraded from stored API markup parameters keeps every price and continues its cursor (no full pass)", async () => {
    const first = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, markup_percent: "30", discount_percent: "20" })
    expect(first.run).toMatchObject({ status: "succeeded", created: PRODUCTS })
    // The first pass asked for costs only: its cursor remembers no markup parameter.
    expect((await syncState(env)).cursor_pricing).toEqual({ ...COSTS_ONLY, markup_percent: null, discount_percent: null, old_price_markup_percent: null })

    // The state an older version left: the API parameters in the settings row (no rules of the
    // shop's own) and a changes cursor made with them at the end of the catalog's change log.
    const { cursor } = env.sb.control.changesCursor({ query: "price_calculation=max&markup_percent=30&discount_percent=20" }) as { cursor: string }
    await sql(
      env.db.url,
      "update mcs_sync_settings set pricing_rules = null, markup_percent = '30', discount_percent = '20', old_price_markup_percent = null where deleted_at is null"
    )
    await sql(
      env.db.url,
      "update mcs_sync_state set cursor = $1, cursor_pricing = $2::jsonb, phase = 'changes', full_pass_id = null where deleted_at is null",
      [cursor, JSON.stringify(LEGACY)]
    )

    // The shop holds exactly the prices the API served with those parameters.
    const served = servedPrices(await readCatalog(env.sb.baseUrl, env.sb.apiKey, LEGACY))
    expect(differences(await shopPricesByVariant(env.db.url), served).slice(0, 10)).toEqual([])

    // Read after the upgrade: the stored parameters folded into the rules, the one place for markup.
    const settings = (await env.app.admin("/admin/catalog-sync/settings")).body.settings
    expect(settings).toMatchObject({
      pricing_rules: { ...DEFAULT_PRICING_RULES, base_markup_percent: "30", crossed_out: { type: "discount", discount_percent: "20" } },
      pricing_rules_saved: false,
    })
    expect(settings).not.toHaveProperty("markup_percent")

    // Catalog changes after the upgrade: a changes run continues the old cursor (its own parameters
    // sent, so no pricing_changed), reads only what changed, and prices it as the API did.
    const changed = (env.sb.control.mutate({ count: 6, kinds: ["price", "stock"] }) as { changed: string[] }).changed
    expect(changed.length).toBeGreaterThan(0)
    const [{ now: startedAt }] = await sql(env.db.url, "select now()::text as now")
    const before = requests(env)
    const run = await runAndWait(env, "changes")
    expect(run).toMatchObject({ status: "succeeded", mode: "changes", created: 0, removed: 0, swept: 0 })
    expect(run.items_seen).toBeLessThan(PRODUCTS)
    expect(run.items_seen).toBeGreaterThanOrEqual(changed.length)
    // A full pass reads at least ceil(PRODUCTS / 200) + 1 pages and every product; this read one page of changes.
    expect(requests(env) - before).toBeLessThanOrEqual(3)
    const state = await syncState(env)
    expect(state).toMatchObject({ phase: "changes", full_pass_id: null, cursor_pricing: LEGACY })
    expect(state.cursor).not.toBe(cursor)

    const after = servedPrices(await readCatalog(env.sb.baseUrl, env.sb.apiKey, LEGACY))
    expect(differences(await shopPricesByVariant(env.db.url), after).slice(0, 10)).toEqual([])
    // Products that did not change: not one price row written again.
    const rewritten = await sql(
      env.db.url,
      `select count(*)::int as n from price p
         join product_variant_price_set l on l.price_set_id = p.price_set_id and l.deleted_at is null
         join product_variant v on v.id = l.variant_id
        where (p.updated_at >= $1::timestamptz or p.created_at >= $1::timestamptz) and not (v.metadata->>'catalog_id' = any($2))`,
      [startedAt, changed]
    )
    expect(rewritten[0].n).toBe(0)
  })

  it("the next full pass after the upgrade asks for costs only and writes not one price", async () => {
    const before = await shopPricesByVariant(env.db.url)
    const [{ now: startedAt }] = await sql(env.db.url, "select now()::text as now")
    const full = await runAndWait(env, "full")
    expect(full).toMatchObject({ status: "succeeded", mode: "full", created: 0, removed: 0, swept: 0, items_seen: PRODUCTS })
    // From the start, so no old cursor to continue: its requests, and so its cursor, carry no markup parameter.
    expect((await syncState(env)).cursor_pricing).toEqual({ ...COSTS_ONLY, markup_percent: null, discount_percent: null, old_price_markup_percent: null })
    expect(await shopPricesByVariant(env.db.url)).toEqual(before)
    const written = await sql(env.db.url, "select count(*)::int as n from price where updated_at >= $1::timestamptz or created_at >= $1::timestamptz", [
      startedAt,
    ])
    expect(written[0].n).toBe(0)
  })

  it("a markup saved through the settings route: a reprice run, 0 requests at the sandbox, prices equal to the rules", async () => {
    const before = requests(env)
    const { saved, run } = await configureAndWait(env, { markup_percent: "35", confirm_price_guards: true })
    expect(saved).toMatchObject({ pricing_changed: false, needs_full_pass: false, rules_changed: true })
    const rules: PricingRules = { ...DEFAULT_PRICING_RULES, base_markup_percent: "35", crossed_out: { type: "discount", discount_percent: "20" } }
    expect(saved.settings).toMatchObject({ pricing_rules: rules, pricing_rules_saved: true })
    expect(run).toMatchObject({ status: "succeeded", mode: "reprice", trigger: "rules_changed", requests_used: 0 })
    expect(requests(env)).toBe(before)
    // The stored API parameters are now the rules: nothing of them is left to send or fold.
    const [row] = await sql(
      env.db.url,
      "select markup_percent, discount_percent, old_price_markup_percent, pricing_rules from mcs_sync_settings where deleted_at is null"
    )
    expect(row).toMatchObject({ markup_percent: null, discount_percent: null, old_price_markup_percent: null, pricing_rules: rules })

    const cards = await readCatalog(env.sb.baseUrl, env.sb.apiKey, COSTS_ONLY)
    expect(differences(await shopPricesByVariant(env.db.url), rulePrices(cards, rules)).slice(0, 10)).toEqual([])
  })
})
