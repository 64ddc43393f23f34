import Decimal from "decimal.js"
import { DEFAULT_PRICING_RULES, type PricingRules, explainRule, parsePricingRules, priceOf, roundPrice } from "../index"

function rules(patch: Partial<PricingRules>): PricingRules {
  const parsed = parsePricingRules({ ...DEFAULT_PRICING_RULES, ...patch })
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors))
  return parsed.rules
}

const NO_CONTEXT = { categoryPath: [], brandId: null }
// Shoes (10) › Sneakers (11) › Running (12)
const RUNNING = { categoryPath: ["10", "11", "12"], brandId: "7" }

describe("priceOf: markup and precedence", () => {
  const r = rules({
    base_markup_percent: "30",
    overrides: [
      { type: "cost_band", min_cost: null, max_cost: "200", markup_percent: "80" },
      { type: "brand", brand_id: "7", markup_percent: "40" },
      { type: "category", category_id: "10", markup_percent: "50" },
      { type: "cost_band", min_cost: "100", max_cost: "300", markup_percent: "60" },
      { type: "category", category_id: "11", markup_percent: "55" },
    ],
  })

  it("the base markup when nothing matches", () => {
    const p = priceOf("1000", { categoryPath: ["99"], brandId: "8" }, r)
    expect(p).toEqual({ amount: "1300.00", crossedOut: null, ruleApplied: { type: "base", markup_percent: "30" }, minimumMarginApplied: false })
  })

  it("the deepest matching category wins, inherited down the tree", () => {
    // Running (12) has no override of its own: Sneakers (11) is the deepest with one.
    const p = priceOf("100", RUNNING, r)
    expect(p.amount).toBe("155.00")
    expect(p.ruleApplied).toEqual({ type: "category", index: 4, category_id: "11", markup_percent: "55", depth: 1, inherited: true })
    // A product right in Sneakers: not inherited.
    expect(priceOf("100", { categoryPath: ["10", "11"], brandId: null }, r).ruleApplied).toMatchObject({ category_id: "11", inherited: false })
    // A sibling of Sneakers under Shoes gets Shoes' markup.
    expect(priceOf("100", { categoryPath: ["10", "13"], brandId: "7" }, r)).toMatchObject({
      amount: "150.00",
      ruleApplied: { type: "category", category_id: "10", depth: 0, inherited: true },
    })
  })

  it("category beats brand, brand beats cost band, list order decides between bands", () => {
    expect(priceOf("100", { categoryPath: ["10"], brandId: "7" }, r).ruleApplied.type).toBe("category")
    expect(priceOf("100", { categoryPath: ["99"], brandId: "7" }, r)).toMatchObject({ amount: "140.00", ruleApplied: { type: "brand", index: 1 } })
    // 150 is in both bands: the first listed (< 200, +80 %) wins.
    expect(priceOf("150", NO_CONTEXT, r)).toMatchObject({ amount: "270.00", ruleApplied: { type: "cost_band", index: 0 } })
    // 250 only in the second band.
    expect(priceOf("250", NO_CONTEXT, r)).toMatchObject({ amount: "400.00", ruleApplied: { type: "cost_band", index: 3 } })
  })

  it("cost bands: lower bound inclusive, upper bound exclusive", () => {
    expect(priceOf("199.99", NO_CONTEXT, r).ruleApplied).toMatchObject({ type: "cost_band", index: 0 })
    expect(priceOf("200", NO_CONTEXT, r).ruleApplied).toMatchObject({ type: "cost_band", index: 3 })
    expect(priceOf("300", NO_CONTEXT, r).ruleApplied).toEqual({ type: "base", markup_percent: "30" })
    const fromBand = rules({ overrides: [{ type: "cost_band", min_cost: "5000", max_cost: null, markup_percent: "10" }] })
    expect(priceOf("5000", NO_CONTEXT, fromBand).amount).toBe("5500.00")
    expect(priceOf("4999.99", NO_CONTEXT, fromBand).amount).toBe("4999.99")
  })

  it("explains the rule for the admin", () => {
    const names = { category: (id: string) => ({ "10": "Shoes", "11": "Sneakers" })[id], brand: () => "Nike" }
    expect(explainRule(priceOf("100", RUNNING, r), names)).toBe("Category “Sneakers” +55 %, inherited by its subcategories (rule 5)")
    expect(explainRule(priceOf("100", { categoryPath: [], brandId: "7" }, r), names)).toMatch(/^Brand “Nike” \+40 %/)
    expect(explainRule(priceOf("150", NO_CONTEXT, r))).toMatch(/^Cost below 200 ₴ \+80 %/)
    expect(explainRule(priceOf("1000", NO_CONTEXT, r))).toBe("Base markup +30 % (no override matched)")
  })

  it("a negative markup sells under cost; −100 % is free", () => {
    expect(priceOf("100", NO_CONTEXT, rules({ base_markup_percent: "-15.5" })).amount).toBe("84.50")
    expect(priceOf("100", NO_CONTEXT, rules({ base_markup_percent: "-100" })).amount).toBe("0.00")
  })
})

describe("priceOf: exact where floats are not", () => {
  it("0.1 + 0.2 and 1.005 × 100", () => {
    expect(0.1 + 0.2).not.toBe(0.3)
    expect(priceOf("0.1", NO_CONTEXT, rules({ base_markup_percent: "200" })).amount).toBe("0.30")
    expect(1.005 * 100).not.toBe(100.5)
    // 1.005 × 1.00 = 1.005 → half up → 1.01 (a float would give 1.00: 1.005 is 1.00499… as a double)
    expect(priceOf("1.005", NO_CONTEXT, rules({})).amount).toBe("1.01")
    expect(priceOf("1.005", NO_CONTEXT, rules({ base_markup_percent: "900" })).amount).toBe("10.05")
  })

  it("half up at the kopiyka: 0.005 → 0.01, 1299.995 → 1300.00, 0.0049 → 0.00", () => {
    expect(priceOf("0.005", NO_CONTEXT, rules({})).amount).toBe("0.01")
    expect(priceOf("1299.995", NO_CONTEXT, rules({})).amount).toBe("1300.00")
    expect(priceOf("0.0049", NO_CONTEXT, rules({})).amount).toBe("0.00")
    // 3 × 1.15 = 3.45 exactly (a double says 3.4499999999999997)
    expect(priceOf("3", NO_CONTEXT, rules({ base_markup_percent: "15" })).amount).toBe("3.45")
    // 1287.40 × 1.175 = 1512.695 → 1512.70
    expect(priceOf("1287.40", NO_CONTEXT, rules({ base_markup_percent: "17.5" })).amount).toBe("1512.70")
  })

  it("the largest money the catalog carries stays exact", () => {
    expect(priceOf("9999999999999.99", NO_CONTEXT, rules({ base_markup_percent: "1000" })).amount).toBe("109999999999999.89")
  })

  it("refuses a cost that is not a non-negative number", () => {
    expect(() => priceOf("-1", NO_CONTEXT, rules({}))).toThrow(TypeError)
    expect(() => priceOf("abc", NO_CONTEXT, rules({}))).toThrow(TypeError)
  })
})

describe("rounding", () => {
  const mode = (m: "none" | "whole" | "ending", ending: "9" | "99" | ".99" | null, direction: "up" | "nearest") => ({ mode: m, ending, direction })
  const cases: [ReturnType<typeof mode>, string, string][] = [
    [mode("none", null, "nearest"), "1287.404", "1287.40"],
    [mode("none", null, "up"), "1287.405", "1287.41"],
    [mode("whole", null, "nearest"), "1287.40", "1287.00"],
    [mode("whole", null, "nearest"), "1287.50", "1288.00"],
    [mode("whole", null, "nearest"), "1287.49", "1287.00"],
    [mode("whole", null, "nearest"), "1299.995", "1300.00"],
    [mode("whole", null, "up"), "1287.01", "1288.00"],
    [mode("whole", null, "up"), "1287.00", "1287.00"],
    [mode("whole", null, "up"), "0.005", "1.00"],
    [mode("whole", null, "nearest"), "0.004", "0.00"],
    [mode("ending", "9", "up"), "1281.00", "1289.00"],
    [mode("ending", "9", "up"), "1289.00", "1289.00"],
    [mode("ending", "9", "up"), "1289.01", "1299.00"],
    [mode("ending", "9", "nearest"), "1283.99", "1279.00"],
    [mode("ending", "9", "nearest"), "1284.00", "1289.00"], // tie between 1279 and 1289: up
    [mode("ending", "9", "nearest"), "3.00", "9.00"], // nothing below 9 on the grid
    [mode("ending", "99", "up"), "1201.00", "1299.00"],
    [mode("ending", "99", "nearest"), "1248.99", "1199.00"],
    [mode("ending", "99", "nearest"), "1249.00", "1299.00"],
    [mode("ending", "99", "nearest"), "50.00", "99.00"],
    [mode("ending", ".99", "up"), "1287.40", "1287.99"],
    [mode("ending", ".99", "up"), "1287.99", "1287.99"],
    [mode("ending", ".99", "up"), "1288.00", "1288.99"],
    [mode("ending", ".99", "nearest"), "1287.40", "1286.99"],
    [mode("ending", ".99", "nearest"), "1287.49", "1287.99"], // tie: up
    [mode("ending", ".99", "nearest"), "0.30", "0.99"],
    [mode("ending", ".99", "nearest"), "0.1", "0.99"],
    [mode("ending", "9", "up"), "0.00", "0.00"], // a free item stays free
  ]
  it.each(cases)("%j: %s → %s", (rounding, amount, expected) => {
    expect(roundPrice(amount, rounding)).toBe(expected)
  })

  it("applies to the selling price through priceOf", () => {
    const r = rules({ base_markup_percent: "30", rounding: mode("ending", "99", "up") })
    expect(priceOf("990.31", NO_CONTEXT, r).amount).toBe("1299.00") // 1287.40 → 1299
    const r2 = rules({ base_markup_percent: "0.1", rounding: mode("whole", null, "nearest") })
    // 0.1 + 0.2 with a markup: 0.3 × 1.001 = 0.3003 → 0.30 → 0
    expect(priceOf("0.3", NO_CONTEXT, r2).amount).toBe("0.00")
  })
})

describe("minimum margin", () => {
  it("an absolute margin lifts a price no rule may undercut", () => {
    const r = rules({ base_markup_percent: "5", minimum_margin: { amount: "50", percent: null } })
    expect(priceOf("100", NO_CONTEXT, r)).toMatchObject({ amount: "150.00", minimumMarginApplied: true })
    expect(priceOf("2000", NO_CONTEXT, r)).toMatchObject({ amount: "2100.00", minimumMarginApplied: false })
  })

  it("a percent margin, and the larger of both", () => {
    const r = rules({ base_markup_percent: "-20", minimum_margin: { amount: "10", percent: "12.5" } })
    expect(priceOf("100", NO_CONTEXT, r).amount).toBe("112.50") // 12.5 % > 10 ₴
    expect(priceOf("40", NO_CONTEXT, r).amount).toBe("50.00") // 10 ₴ > 5 ₴
    // A fraction of a kopiyka rounds the floor up: 0.03 × 1.125 = 0.03375 → 0.04
    expect(priceOf("0.03", NO_CONTEXT, rules({ minimum_margin: { amount: null, percent: "12.5" } })).amount).toBe("0.04")
  })

  it("beats an override too", () => {
    const r = rules({ overrides: [{ type: "category", category_id: "10", markup_percent: "-50" }], minimum_margin: { amount: null, percent: "10" } })
    const p = priceOf("100", RUNNING, r)
    expect(p).toMatchObject({ amount: "110.00", minimumMarginApplied: true, ruleApplied: { type: "category" } })
    expect(explainRule(p)).toMatch(/raised to the minimum margin$/)
  })

  it("rounding to nearest never goes under the floor: the floor is rounded up instead", () => {
    // 100 + 20 % = 120 is the floor; nearest …99 would be 99, under it → 199.
    const r = rules({
      base_markup_percent: "0",
      minimum_margin: { amount: null, percent: "20" },
      rounding: { mode: "ending", ending: "99", direction: "nearest" },
    })
    expect(priceOf("100", NO_CONTEXT, r).amount).toBe("199.00")
    // Without the margin, nearest is 99.
    expect(priceOf("100", NO_CONTEXT, rules({ rounding: { mode: "ending", ending: "99", direction: "nearest" } })).amount).toBe("99.00")
    // Whole hryvnia: 1.005 floor (1 + 0.5 %) is 1.01 → nearest 1, under the floor → 2.
    const w = rules({ minimum_margin: { amount: null, percent: "0.5" }, rounding: { mode: "whole", ending: null, direction: "nearest" } })
    expect(priceOf("1", NO_CONTEXT, w).amount).toBe("2.00")
  })
})

describe("crossed-out price", () => {
  it("a discount percent, from the final price, as the API: price / (1 − d/100)", () => {
    const r = rules({ base_markup_percent: "30", crossed_out: { type: "discount", discount_percent: "20" } })
    expect(priceOf("1000", NO_CONTEXT, r)).toMatchObject({ amount: "1300.00", crossedOut: "1625.00" })
    // 115 / 0.7 = 164.2857… → 164.29
    expect(priceOf("100", NO_CONTEXT, rules({ base_markup_percent: "15", crossed_out: { type: "discount", discount_percent: "30" } })).crossedOut).toBe(
      "164.29"
    )
    // 0 % discount: the crossed-out price equals the price.
    expect(priceOf("100", NO_CONTEXT, rules({ base_markup_percent: "15", crossed_out: { type: "discount", discount_percent: "0" } })).crossedOut).toBe("115.00")
  })

  it("a separate markup over the cost", () => {
    const r = rules({ base_markup_percent: "30", crossed_out: { type: "markup", markup_percent: "60" } })
    expect(priceOf("1287.40", NO_CONTEXT, r)).toMatchObject({ amount: "1673.62", crossedOut: "2059.84" })
  })

  it("rounded by the same rounding, after the price's own rounding", () => {
    const r = rules({
      base_markup_percent: "30",
      rounding: { mode: "ending", ending: "99", direction: "up" },
      crossed_out: { type: "discount", discount_percent: "20" },
    })
    // 990.31 → 1287.40 → 1299; 1299 / 0.8 = 1623.75 → 1699
    expect(priceOf("990.31", NO_CONTEXT, r)).toMatchObject({ amount: "1299.00", crossedOut: "1699.00" })
    const m = rules({
      base_markup_percent: "30",
      rounding: { mode: "whole", ending: null, direction: "nearest" },
      crossed_out: { type: "markup", markup_percent: "45.25" },
    })
    // 100 × 1.4525 = 145.25 → 145
    expect(priceOf("100", NO_CONTEXT, m)).toMatchObject({ amount: "130.00", crossedOut: "145.00" })
  })

  it("the discount follows the minimum margin's price", () => {
    const r = rules({ base_markup_percent: "0", minimum_margin: { amount: "20", percent: null }, crossed_out: { type: "discount", discount_percent: "50" } })
    expect(priceOf("100", NO_CONTEXT, r)).toMatchObject({ amount: "120.00", crossedOut: "240.00" })
  })
})

describe("parity arithmetic with the API (independent decimal.js computation)", () => {
  const D = Decimal.clone({ precision: 50 })
  const r2 = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2)
  it.each(["0", "17.5", "30", "45.25", "1000", "0.0001"])("markup %s over awkward costs", (markup) => {
    const r = rules({ base_markup_percent: markup, crossed_out: { type: "discount", discount_percent: "33.33" } })
    for (const cost of ["0.01", "0.05", "1.15", "2.675", "99.99", "1287.40", "4321.07", "12345678.91"]) {
      const price = new D(cost).times(new D(1).plus(new D(markup).div(100)))
      const expected = r2(price)
      expect(priceOf(cost, NO_CONTEXT, r).amount).toBe(expected)
      expect(priceOf(cost, NO_CONTEXT, r).crossedOut).toBe(r2(new D(expected).div(new D(1).minus(new D("0.3333")))))
    }
  })
})
