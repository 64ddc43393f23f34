// Prices the catalog sends as JSON numbers ("price":130.5, not "130.50") keep every digit, end to
// end: the sandbox serves its money as bare numbers (control API /money-format), a real app syncs
// through the real HTTP client, and Medusa's price rows (SQL) and the plugin's stored costs must
// equal the served numbers read from the raw response text (lossless-json, not the plugin's
// parser). A price truncated to 130 anywhere on the way shows as a difference here.
import Decimal from "decimal.js"
import { parse } from "lossless-json"
import { judgeShop, readShopTruth, type TruthCard } from "../harness/shop-truth"
import { sql } from "./poll-and-query"
import { configureAndWait, startSyncEnv, type SyncEnv } from "./sync-helpers"

jest.setTimeout(900_000)

const PRODUCTS = 40
const PRICING = { price_calculation: "max", markup_percent: "30", discount_percent: null, old_price_markup_percent: "60" } as const

/** The served page as its raw text says it: decimals as their exact text, small integers as numbers, ids as text. */
async function rawCards(env: SyncEnv): Promise<{ text: string; cards: TruthCard[] }> {
  const query = new URLSearchParams({
    limit: "200",
    price_calculation: PRICING.price_calculation,
    markup_percent: PRICING.markup_percent,
    old_price_markup_percent: PRICING.old_price_markup_percent,
  })
  const res = await fetch(`${env.sb.baseUrl}/v1/products?${query}`, { headers: { "X-API-Key": env.sb.apiKey } })
  expect(res.status).toBe(200)
  const text = await res.text()
  const body = parse(text, undefined, (digits) => (/^-?\d{1,15}$/.test(digits) ? Number(digits) : digits)) as { data: Record<string, unknown>[] }
  const cards = body.data.map((c) => ({ ...c, id: String(c.id) }) as unknown as TruthCard)
  return { text, cards }
}

describe("prices sent as JSON numbers are stored exactly", () => {
  let env: SyncEnv

  beforeAll(async () => {
    env = await startSyncEnv("numeric-json-prices", { products: PRODUCTS, seed: 71 })
    const res = await fetch(`${env.sb.controlUrl}/money-format`, { method: "POST", body: JSON.stringify({ as: "number" }) })
    expect(res.status).toBe(200)
  })
  afterAll(async () => {
    await env?.close()
  })

  it("every price and cost equals the served number, fractions included (never truncated)", async () => {
    const { text, cards } = await rawCards(env)
    // The sandbox does serve bare numbers with fractions, such as 130.5.
    expect(text).not.toMatch(/"price":"/)
    const fractional = [...text.matchAll(/"(?:price|old_price|cost_price)":(\d+\.\d+)/g)].map((m) => m[1])
    expect(fractional.length).toBeGreaterThan(PRODUCTS)
    expect(fractional.some((n) => /\.\d$/.test(n))).toBe(true)

    const { run } = await configureAndWait(env, { base_url: env.sb.baseUrl, api_key: env.sb.apiKey, ...PRICING })
    expect(run).toMatchObject({ status: "succeeded", created: PRODUCTS })
    expect(run!.rejected_items ?? []).toEqual([])

    // Medusa's prices (base and sale price list) per size, against the served numbers.
    expect(judgeShop(cards, await readShopTruth(env.db.url))).toEqual([])
    // Medusa's own amount columns hold the fractions too (not only the raw_amount text).
    const fractions = await sql(env.db.url, "select count(*)::int as n from price where deleted_at is null and amount <> trunc(amount)")
    expect(fractions[0].n).toBeGreaterThan(0)

    // The plugin's stored costs (what its pricing rules reprice from): the served cost's digits.
    const costs = await sql(env.db.url, "select catalog_id, size_key, cost from mcs_variant_cost where deleted_at is null")
    const served = new Map(
      cards.flatMap((c) =>
        c.sizes.length ? c.sizes.map((s) => [`${c.id}/${s.size.trim()}`, s.cost_price ?? null] as const) : [[`${c.id}/`, c.cost_price ?? null] as const]
      )
    )
    expect(costs.length).toBeGreaterThan(PRODUCTS)
    for (const row of costs) {
      const want = served.get(`${row.catalog_id}/${row.size_key}`)
      expect({ key: `${row.catalog_id}/${row.size_key}`, cost: row.cost === null ? null : new Decimal(row.cost).toFixed(2) }).toEqual({
        key: `${row.catalog_id}/${row.size_key}`,
        cost: want === null || want === undefined ? null : new Decimal(want).toFixed(2),
      })
    }
  })
})
