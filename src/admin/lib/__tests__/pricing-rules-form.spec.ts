import { DEFAULT_PRICING_RULES } from "../../../pricing"
import { rulesDiffer, rulesSupported, splitRulesErrors } from "../pricing-rules-form"
import { EMPTY_SETTINGS } from "../settings-form"

describe("pricing rules in the settings form", () => {
  const saved = { ...EMPTY_SETTINGS, pricing_rules: { ...DEFAULT_PRICING_RULES, base_markup_percent: "30" } }

  it("knows a server with rules from one without", () => {
    expect(rulesSupported(saved)).toBe(true)
    const { pricing_rules: _, ...older } = saved
    expect(rulesSupported(older as typeof saved)).toBe(false)
  })

  it("compares the draft normalised, and a draft the rules refuse always differs", () => {
    expect(rulesDiffer({ ...DEFAULT_PRICING_RULES, base_markup_percent: "30.00" }, saved)).toBe(false)
    expect(rulesDiffer({ ...DEFAULT_PRICING_RULES, base_markup_percent: "31" }, saved)).toBe(true)
    expect(rulesDiffer({ ...DEFAULT_PRICING_RULES, base_markup_percent: "abc" }, saved)).toBe(true)
    expect(rulesDiffer({ ...saved.pricing_rules, rounding: { mode: "whole", ending: null, direction: "up" } }, saved)).toBe(true)
  })

  it("routes the server's refusals inside the rules to the editor, the rest to the form", () => {
    expect(splitRulesErrors({ "pricing_rules.overrides[1].markup_percent": "must be from -100 to 1000", markup_percent: "bad" })).toEqual({
      rules: [{ field: "overrides[1].markup_percent", message: "must be from -100 to 1000" }],
      other: { markup_percent: "bad" },
    })
  })
})
