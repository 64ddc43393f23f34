import { DEFAULT_PRICING_RULES, fieldPath, parsePricingRules, rulesFromApiPricing } from "../rules"

const valid = {
  base_markup_percent: "30",
  overrides: [
    { type: "category", category_id: "10", markup_percent: 45.25 },
    { type: "brand", brand_id: "7", markup_percent: "-10" },
    { type: "cost_band", max_cost: "200", markup_percent: "80" },
  ],
  rounding: { mode: "ending", ending: "99", direction: "up" },
  minimum_margin: { amount: "50", percent: "10" },
  crossed_out: { type: "discount", discount_percent: "20" },
}

function errorsOf(input: unknown) {
  const result = parsePricingRules(input)
  if (result.ok) throw new Error("expected errors")
  return result.errors
}

describe("pricingRulesSchema", () => {
  it("accepts and normalises a full rule set (numbers → decimal text, missing bounds → null)", () => {
    const result = parsePricingRules(valid)
    expect(result).toEqual({
      ok: true,
      rules: {
        ...valid,
        overrides: [
          { type: "category", category_id: "10", markup_percent: "45.25" },
          { type: "brand", brand_id: "7", markup_percent: "-10" },
          { type: "cost_band", min_cost: null, max_cost: "200", markup_percent: "80" },
        ],
      },
    })
    expect(parsePricingRules(DEFAULT_PRICING_RULES)).toEqual({ ok: true, rules: DEFAULT_PRICING_RULES })
    expect(parsePricingRules({ base_markup_percent: "030.50", rounding: { mode: "none" } })).toEqual({
      ok: true,
      rules: { ...DEFAULT_PRICING_RULES, base_markup_percent: "30.5" },
    })
  })

  it("names the field of each error", () => {
    const bad = structuredClone(valid) as any
    bad.overrides.push({ type: "brand", brand_id: "8", markup_percent: "1000.5" })
    expect(errorsOf(bad)).toEqual([{ field: "overrides[3].markup_percent", message: "must be at most 1000" }])
    bad.overrides[3].markup_percent = "-100.01"
    expect(errorsOf(bad)[0].field).toBe("overrides[3].markup_percent")
    bad.overrides[3].markup_percent = "abc"
    expect(errorsOf(bad)).toEqual([{ field: "overrides[3].markup_percent", message: "must be a number from -100 to 1000" }])
  })

  it("markup bounds −100 and 1000 are inclusive; at most 4 decimals", () => {
    expect(parsePricingRules({ ...valid, base_markup_percent: "-100" }).ok).toBe(true)
    expect(parsePricingRules({ ...valid, base_markup_percent: "1000" }).ok).toBe(true)
    expect(errorsOf({ ...valid, base_markup_percent: "1.00001" })).toEqual([{ field: "base_markup_percent", message: "must have at most 4 decimals" }])
  })

  it("discount below 100, money with 2 decimals at most, not negative", () => {
    expect(errorsOf({ ...valid, crossed_out: { type: "discount", discount_percent: "100" } })).toEqual([
      { field: "crossed_out.discount_percent", message: "must be below 100" },
    ])
    expect(errorsOf({ ...valid, minimum_margin: { amount: "1.001", percent: null } })[0].field).toBe("minimum_margin.amount")
    expect(errorsOf({ ...valid, minimum_margin: { amount: "-1", percent: null } })[0].field).toBe("minimum_margin.amount")
  })

  it("cross-field rules: ending needed, bands ordered and bounded, no repeated category or brand", () => {
    expect(errorsOf({ ...valid, rounding: { mode: "ending", direction: "up" } })).toEqual([
      { field: "rounding.ending", message: "pick an ending (…9, …99 or ,99)" },
    ])
    expect(errorsOf({ ...valid, overrides: [{ type: "cost_band", min_cost: "200", max_cost: "200", markup_percent: "1" }] })).toEqual([
      { field: "overrides[0].max_cost", message: "must be above the band's lower bound (cost from)" },
    ])
    expect(errorsOf({ ...valid, overrides: [{ type: "cost_band", markup_percent: "1" }] })[0].field).toBe("overrides[0].max_cost")
    expect(
      errorsOf({
        ...valid,
        overrides: [
          { type: "category", category_id: "10", markup_percent: "1" },
          { type: "brand", brand_id: "10", markup_percent: "1" },
          { type: "category", category_id: "10", markup_percent: "2" },
        ],
      })
    ).toEqual([{ field: "overrides[2].category_id", message: "category repeats overrides[0]" }])
  })

  it("unknown fields and kinds are refused by name", () => {
    expect(errorsOf({ ...valid, markup: "1" })).toEqual([{ field: "markup", message: "is not a rule field" }])
    expect(errorsOf({ ...valid, overrides: [{ type: "sku", markup_percent: "1" }] })[0].field).toBe("overrides[0].type")
    expect(errorsOf({ ...valid, overrides: [{ type: "category", category_id: "0", markup_percent: "1" }] })[0].field).toBe("overrides[0].category_id")
  })

  it("rulesFromApiPricing: the API's parameters as rules (no markup: the cost, no crossed-out price)", () => {
    expect(rulesFromApiPricing({ markup_percent: "030.50", discount_percent: "20" })).toEqual({
      ...DEFAULT_PRICING_RULES,
      base_markup_percent: "30.5",
      crossed_out: { type: "discount", discount_percent: "20" },
    })
    expect(rulesFromApiPricing({ markup_percent: "5", old_price_markup_percent: "60" }).crossed_out).toEqual({ type: "markup", markup_percent: "60" })
    expect(rulesFromApiPricing({ markup_percent: null, discount_percent: "20" })).toEqual(DEFAULT_PRICING_RULES)
  })

  it("fieldPath", () => {
    expect(fieldPath(["overrides", 2, "markup_percent"])).toBe("overrides[2].markup_percent")
    expect(fieldPath([])).toBe("rules")
  })
})
