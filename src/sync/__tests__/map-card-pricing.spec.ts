// The sync's prices by the shop's rules: each size's cost_price through the engine, the result
// kept on the variant (for the cost table) and outside the fingerprint's variant part.
import { DEFAULT_PRICING_RULES, rulesFromApiPricing, type PricingRules } from "../../pricing/rules"
import { fingerprintParts } from "../fingerprint"
import { mapCardToProduct, type MapPricing } from "../map-card"
import { card } from "./card-fixtures"

const ctx = { primaryLanguage: "uk" as const, salesChannelId: "sc_1" }
const pricing = (rules: PricingRules, path: string[] = []): MapPricing => ({ rules, categoryPathOf: (id) => (id ? [...path, id] : []) })

describe("mapCardToProduct with pricing rules", () => {
  it("with only the API's markup, prices every size from its cost as the API does and keeps the cost on the variant", () => {
    const c = card({
      sizes: [
        { size: "42", stock: 3, cost_price: "990.00", price: "1287.00" },
        { size: "43", stock: 2, cost_price: "1000.08", price: "1300.10" },
      ],
    })
    const input = mapCardToProduct(c, { ...ctx, pricing: pricing(rulesFromApiPricing({ markup_percent: "30" })) })
    // 1000.08 × 1.3 = 1300.104 → 1300.10, half up to the kopiyka like the API.
    expect(input.variants.map((v) => [v.sizeKey, v.amount, v.saleAmount])).toEqual([
      ["42", "1287.00", null],
      ["43", "1300.10", null],
    ])
    expect(input.variants.map((v) => v.priced)).toEqual([
      { cost: "990.00", amount: "1287.00", crossedOut: null, categoryPath: [], brandId: null },
      { cost: "1000.08", amount: "1300.10", crossedOut: null, categoryPath: [], brandId: null },
    ])
  })

  it("ignores the card's own price: the rules decide (category override inherited, rounding, crossed-out discount)", () => {
    const rules: PricingRules = {
      ...DEFAULT_PRICING_RULES,
      base_markup_percent: "30",
      overrides: [{ type: "category", category_id: "5", markup_percent: "50" }],
      rounding: { mode: "ending", ending: "99", direction: "up" },
      crossed_out: { type: "discount", discount_percent: "20" },
    }
    const c = card({ category_id: "77" } as never)
    const input = mapCardToProduct(c, { ...ctx, pricing: pricing(rules, ["5"]) })
    // 990 × 1.5 = 1485 → 1499; crossed out 1499 / 0.8 = 1873.75 → 1899. Base = crossed out, sale = price.
    expect(input.variants[0]).toMatchObject({ amount: "1899.00", saleAmount: "1499.00" })
    expect(input.variants[0].priced).toMatchObject({ cost: "990.00", amount: "1499.00", crossedOut: "1899.00", categoryPath: ["5", "77"] })
  })

  it("a size without cost has no price; the product without any price is a draft", () => {
    const c = card({ cost_price: null, sizes: [{ size: "42", stock: 1, cost_price: null, price: null }] } as never)
    const input = mapCardToProduct(c, { ...ctx, pricing: pricing(rulesFromApiPricing({ markup_percent: "30" })) })
    expect(input.variants[0]).toMatchObject({ amount: null, saleAmount: null, priced: { cost: null, amount: null } })
    expect(input.status).toBe("draft")
  })

  it("the stored pricing part does not move the variants' fingerprint (only the amounts do)", () => {
    // A card as the API prices it with markup 30 (1000.08 × 1.3 = 1300.10).
    const c = card({
      sizes: [
        { size: "42", stock: 3, cost_price: "990.00", price: "1287.00" },
        { size: "43", stock: 2, cost_price: "1000.08", price: "1300.10" },
      ],
    })
    const plain = mapCardToProduct(c, ctx)
    const ruled = mapCardToProduct(c, { ...ctx, pricing: pricing(rulesFromApiPricing({ markup_percent: "30" })) })
    expect(fingerprintParts(ruled)).toEqual(fingerprintParts(plain))
  })
})
