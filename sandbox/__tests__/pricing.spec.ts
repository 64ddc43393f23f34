// Section 2.2 price rules, checked against the suppliers' data with an independent decimal.js computation.

import DecimalBase from "decimal.js"
import type { Product } from "../model"
import { startSandbox, type Sandbox } from "../server"
import { get } from "./http"

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ products: 300, seed: 6, rpm: 100_000, concurrency: 50 })
})
afterAll(async () => sb.close())

// The oracle: decimal.js with ample precision, independent of the sandbox's integer arithmetic.
const Decimal = DecimalBase.clone({ precision: 100 })
type Decimal = InstanceType<typeof Decimal>
const HALF_UP = Decimal.ROUND_HALF_UP
const r2 = (d: Decimal) => d.toDecimalPlaces(2, HALF_UP)

function aggregate(kopiykas: number[], calc: string): Decimal | null {
  if (kopiykas.length === 0) return null
  const values = kopiykas.map((k) => new Decimal(k).div(100))
  if (calc === "min") return Decimal.min(...values)
  if (calc === "max") return Decimal.max(...values)
  return r2(values.reduce((a, b) => a.plus(b), new Decimal(0)).div(values.length))
}

function expectedCost(product: Product, calc: string, slot: number | null): Decimal | null {
  const offers = product.suppliers
  if (slot === null) {
    const priced = offers.filter((o) => o.baseCost !== null)
    const stocked = priced.filter((o) => o.sizeStock.some((s) => s > 0))
    return aggregate(
      (stocked.length ? stocked : priced).map((o) => o.baseCost!),
      calc
    )
  }
  const listed = offers.filter((o) => o.sizeStock[slot] >= 0 && o.sizeCosts[slot] !== null)
  const stocked = listed.filter((o) => o.sizeStock[slot] > 0)
  return aggregate(
    (stocked.length ? stocked : listed).map((o) => o.sizeCosts[slot]!),
    calc
  )
}

function expectedPrices(cost: Decimal | null, q: Record<string, string>) {
  const money = (d: Decimal | null) => (d === null ? null : d.toFixed(2))
  const out: Record<string, string | null> = { cost_price: money(cost) }
  if (q.markup_percent === undefined) return out
  const price = cost === null ? null : r2(cost.times(new Decimal(1).plus(new Decimal(q.markup_percent).div(100))))
  out.price = money(price)
  if (q.discount_percent !== undefined) {
    out.old_price = money(price === null ? null : r2(price.div(new Decimal(1).minus(new Decimal(q.discount_percent).div(100)))))
  } else if (q.old_price_markup_percent !== undefined) {
    out.old_price = money(cost === null ? null : r2(cost.times(new Decimal(1).plus(new Decimal(q.old_price_markup_percent).div(100)))))
  }
  return out
}

async function allCards(query: string): Promise<{ cards: any[]; meta: any }> {
  const cards: any[] = []
  let cursor: string | null = null
  for (;;) {
    const result: any = await get(sb.baseUrl, `/v1/products?limit=200&${query}${cursor ? "&cursor=" + cursor : ""}`, { key: sb.apiKey })
    expect(result.status).toBe(200)
    cards.push(...result.json.data)
    if (!result.json.meta.has_more) return { cards, meta: result.json.meta }
    cursor = result.json.meta.next_cursor
  }
}

const CASES: Record<string, string>[] = [
  {},
  { price_calculation: "min" },
  { price_calculation: "avg" },
  { price_calculation: "max", markup_percent: "30" },
  { price_calculation: "avg", markup_percent: "12.5", discount_percent: "20" },
  { price_calculation: "min", markup_percent: "0", old_price_markup_percent: "45.55" },
  { markup_percent: "1000", discount_percent: "99.99" },
  { markup_percent: "33.333", discount_percent: "0" },
  // Long fractions take the BigInt path.
  { markup_percent: "0.000000000000000000000000005", discount_percent: "99.9999999999999999999" },
  { price_calculation: "avg", markup_percent: "999.999999999999999999", old_price_markup_percent: "0.5" },
  { markup_percent: "14.285714285714285714", discount_percent: "33.3333333333" },
]

describe("price rules (2.2)", () => {
  it.each(CASES)("cards follow the rules for %j", async (q) => {
    const query = new URLSearchParams(q).toString()
    const { cards, meta } = await allCards(query)
    expect(meta.pricing).toEqual({
      price_calculation: q.price_calculation ?? "max",
      markup_percent: q.markup_percent !== undefined ? new Decimal(q.markup_percent).toFixed() : null,
      discount_percent: q.discount_percent !== undefined ? new Decimal(q.discount_percent).toFixed() : null,
      old_price_markup_percent: q.old_price_markup_percent !== undefined ? new Decimal(q.old_price_markup_percent).toFixed() : null,
    })
    const calc = q.price_calculation ?? "max"
    for (const card of cards) {
      const product = sb.state.catalog.findLive(String(card.id))!
      const main = expectedPrices(expectedCost(product, calc, null), q)
      expect({ cost_price: card.cost_price, price: card.price, old_price: card.old_price }).toEqual({
        cost_price: main.cost_price,
        price: main.price,
        old_price: main.old_price,
      })
      expect("price" in card).toBe(q.markup_percent !== undefined)
      expect("old_price" in card).toBe(q.markup_percent !== undefined && (q.discount_percent ?? q.old_price_markup_percent) !== undefined)
      card.sizes.forEach((size: any, slot: number) => {
        const expected = expectedPrices(expectedCost(product, calc, slot), q)
        expect({ cost_price: size.cost_price, price: size.price, old_price: size.old_price }).toEqual({
          cost_price: expected.cost_price,
          price: expected.price,
          old_price: expected.old_price,
        })
      })
    }
  })

  it("writes money as decimal strings with two decimals", async () => {
    const { cards } = await allCards("markup_percent=17.3&discount_percent=13")
    for (const card of cards) {
      for (const value of [card.cost_price, card.price, card.old_price, ...card.sizes.flatMap((s: any) => [s.cost_price, s.price, s.old_price])]) {
        if (value !== null) expect(value).toMatch(/^\d+\.\d{2}$/)
      }
    }
  })

  it("the catalog makes min, avg and max differ, sizes of one product differ in price, and has null cost_price", async () => {
    const min = (await allCards("price_calculation=min")).cards
    const max = (await allCards("price_calculation=max")).cards
    const avg = (await allCards("price_calculation=avg")).cards
    const differs = min.filter((c, i) => c.cost_price !== max[i].cost_price && avg[i].cost_price !== min[i].cost_price)
    expect(differs.length).toBeGreaterThan(10)
    expect(max.some((c) => new Set(c.sizes.map((s: any) => s.cost_price)).size > 1)).toBe(true)
    const nullCost = max.filter((c) => c.cost_price === null)
    expect(nullCost.length).toBeGreaterThan(0)
    const priced = (await allCards("markup_percent=10&discount_percent=10")).cards.filter((c) => c.cost_price === null)
    for (const card of priced) {
      expect(card.price).toBeNull()
      expect(card.old_price).toBeNull()
    }
  })

  it("cost is taken from suppliers that have the product in stock (not from out-of-stock ones)", () => {
    // Find a product where an out-of-stock supplier is the most expensive: max must ignore it.
    const product = sb.state.catalog.liveProducts().find((p) => {
      const priced = p.suppliers.filter((o) => o.baseCost !== null)
      const stocked = priced.filter((o) => o.sizeStock.some((s) => s > 0))
      const idle = priced.filter((o) => !o.sizeStock.some((s) => s > 0))
      return stocked.length > 0 && idle.some((o) => stocked.every((s) => o.baseCost! > s.baseCost!))
    })
    expect(product).toBeDefined()
  })
})

describe("pricing on other endpoints", () => {
  it("single products, stock and the changes feed apply and echo the same pricing", async () => {
    const q = "price_calculation=avg&markup_percent=25&old_price_markup_percent=60"
    const { cards } = await allCards(q)
    const card = cards.find((c) => c.sizes.length > 1 && c.cost_price !== null)
    const single = await get(sb.baseUrl, `/v1/products/${card.id}?${q}`, { key: sb.apiKey })
    expect(single.json.data).toEqual(card)
    const stock = await get(sb.baseUrl, `/v1/stock?ids=${card.id}&${q}`, { key: sb.apiKey })
    expect(stock.json.data[0]).toEqual({
      id: card.id,
      sku: card.sku,
      in_stock: card.in_stock,
      stock: card.stock,
      cost_price: card.cost_price,
      price: card.price,
      old_price: card.old_price,
      sizes: card.sizes,
      sync_version: card.sync_version,
    })
    for (const response of [single, stock]) {
      expect(response.json.meta.pricing).toEqual({ price_calculation: "avg", markup_percent: "25", discount_percent: null, old_price_markup_percent: "60" })
    }
    const changes = await get(sb.baseUrl, `/v1/products/changes?limit=200&${q}`, { key: sb.apiKey })
    const item = changes.json.data.find((i: any) => String(i.id) === String(card.id))
    if (item) expect(item.product).toEqual(card)
    expect(changes.json.meta.pricing.markup_percent).toBe("25")
  })

  it("normalises echoed numbers (30.50 → 30.5, 007 → 7)", async () => {
    const result = await get(sb.baseUrl, "/v1/products?limit=1&markup_percent=30.50&discount_percent=007", { key: sb.apiKey })
    expect(result.json.meta.pricing).toEqual({ price_calculation: "max", markup_percent: "30.5", discount_percent: "7", old_price_markup_percent: null })
  })
})
