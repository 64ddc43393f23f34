import { DEFAULT_PRICING_RULES } from "../../pricing/rules"
import { validateSettingsPatch } from "../settings"

const current = {
  pricingRules: DEFAULT_PRICING_RULES,
  pricingRulesSaved: false,
  storedApiPricing: { markup_percent: null, discount_percent: null, old_price_markup_percent: null },
}

describe("settings: alert_email", () => {
  it("takes an address, trimmed", () => {
    expect(validateSettingsPatch({ alert_email: "  owner@example.com " }, current)).toEqual({ ok: true, patch: { alert_email: "owner@example.com" } })
  })

  it("clears with null or an empty string", () => {
    expect(validateSettingsPatch({ alert_email: null }, current)).toEqual({ ok: true, patch: { alert_email: null } })
    expect(validateSettingsPatch({ alert_email: "  " }, current)).toEqual({ ok: true, patch: { alert_email: null } })
  })

  it("refuses what is not an address, naming the field", () => {
    for (const bad of ["owner", "owner@", "owner@example", "a b@example.com", 42, "x".repeat(320) + "@example.com"]) {
      const result = validateSettingsPatch({ alert_email: bad }, current)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.errors[0].field).toBe("alert_email")
    }
  })
})
