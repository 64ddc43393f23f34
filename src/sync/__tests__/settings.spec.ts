import { fieldLocksOf } from "../settings/effective-settings"
import { type SettingsRow, initialRowValues, maskApiKey, resolveEffectiveSettings, samePricing, toPublicSettings, validateSettingsPatch } from "../settings"
import { DEFAULT_PRICING_RULES } from "../../pricing/rules"

const noStoredApiPricing = { markup_percent: null, discount_percent: null, old_price_markup_percent: null }
const noPricing = { pricingRules: DEFAULT_PRICING_RULES, pricingRulesSaved: false, storedApiPricing: noStoredApiPricing }
const hashKey = (k: string) => `h(${k.length})`

function fieldsOf(body: unknown, current: Parameters<typeof validateSettingsPatch>[1] = noPricing) {
  const result = validateSettingsPatch(body, current)
  return result.ok ? [] : result.errors.map((e) => e.field)
}

describe("validateSettingsPatch", () => {
  it("accepts a full valid patch and normalises numbers", () => {
    const result = validateSettingsPatch(
      {
        base_url: "http://127.0.0.1:4010/v1/",
        api_key: " key-1234 ",
        price_calculation: "avg",
        markup_percent: 30,
        discount_percent: "20.50",
        poll_interval_minutes: 5,
        removal_mode: "draft",
        primary_language: "ru",
        enabled: false,
        stock_location_id: null,
      },
      noPricing
    )
    expect(result.ok).toBe(true)
    if (!result.ok) return
    // The API's markup parameters are folded into the shop's rules (never sent to the API, never stored as such).
    expect(result.patch).not.toHaveProperty("markup_percent")
    expect(result.patch).not.toHaveProperty("discount_percent")
    expect(result.patch).toMatchObject({
      base_url: "http://127.0.0.1:4010",
      api_key: "key-1234",
      price_calculation: "avg",
      pricing_rules: { ...DEFAULT_PRICING_RULES, base_markup_percent: "30", crossed_out: { type: "discount", discount_percent: "20.5" } },
      poll_interval_minutes: 5,
      removal_mode: "draft",
      primary_language: "ru",
      enabled: false,
      stock_location_id: null,
    })
  })

  it.each([
    [{ markup_percent: -1 }, "markup_percent"],
    [{ markup_percent: "1000.01" }, "markup_percent"],
    [{ markup_percent: "abc" }, "markup_percent"],
    [{ discount_percent: 100 }, "discount_percent"],
    [{ old_price_markup_percent: 1001 }, "old_price_markup_percent"],
    [{ poll_interval_minutes: 4 }, "poll_interval_minutes"],
    [{ poll_interval_minutes: 16 }, "poll_interval_minutes"],
    [{ poll_interval_minutes: 7.5 }, "poll_interval_minutes"],
    [{ removal_mode: "archive" }, "removal_mode"],
    [{ primary_language: "en" }, "primary_language"],
    [{ base_url: "ftp://example.com" }, "base_url"],
    [{ base_url: "not a url" }, "base_url"],
    [{ api_key: "" }, "api_key"],
    [{ enabled: "yes" }, "enabled"],
    [{ mirror_images: "yes" }, "mirror_images"],
    [{ mirror_images: null }, "mirror_images"],
    [{ price_calculation: "median" }, "price_calculation"],
    [{ surprise: 1 }, "surprise"],
  ])("refuses %j naming %s", (body, field) => {
    expect(fieldsOf(body)).toContain(field)
  })

  it("treats the masked key echoed back as no change", () => {
    const result = validateSettingsPatch({ api_key: "••••1234", markup_percent: 10 }, noPricing)
    expect(result.ok && "api_key" in result.patch).toBe(false)
    expect(result.ok && result.patch.pricing_rules?.base_markup_percent).toBe("10")
  })

  it("accepts the bounds", () => {
    expect(fieldsOf({ markup_percent: 0, discount_percent: "99.99", poll_interval_minutes: 15 })).toEqual([])
    expect(fieldsOf({ markup_percent: 1000, old_price_markup_percent: 1000 })).toEqual([])
  })

  it("refuses discount and old-price markup together; one given replaces the saved other kind", () => {
    expect(fieldsOf({ discount_percent: 10, old_price_markup_percent: 20 })).toEqual(["discount_percent"])
    const stored = { ...noPricing, storedApiPricing: { markup_percent: "30", discount_percent: "10", old_price_markup_percent: null } }
    expect(validateSettingsPatch({ old_price_markup_percent: 20 }, stored)).toEqual({
      ok: true,
      patch: { pricing_rules: { ...DEFAULT_PRICING_RULES, base_markup_percent: "30", crossed_out: { type: "markup", markup_percent: "20" } } },
    })
    const saved = {
      ...noPricing,
      pricingRulesSaved: true,
      pricingRules: { ...DEFAULT_PRICING_RULES, crossed_out: { type: "discount" as const, discount_percent: "10" } },
    }
    expect(validateSettingsPatch({ old_price_markup_percent: 20 }, saved)).toMatchObject({
      ok: true,
      patch: { pricing_rules: { crossed_out: { type: "markup", markup_percent: "20" } } },
    })
    expect(validateSettingsPatch({ discount_percent: null }, saved)).toMatchObject({ ok: true, patch: { pricing_rules: { crossed_out: { type: "none" } } } })
  })

  it("a markup or discount saved as such changes only the base markup and crossed-out rule of the saved rules", () => {
    const rules = {
      ...DEFAULT_PRICING_RULES,
      base_markup_percent: "20",
      overrides: [{ type: "brand" as const, brand_id: "7", markup_percent: "50" }],
      rounding: { mode: "whole" as const, ending: null, direction: "up" as const },
    }
    const saved = { ...noPricing, pricingRulesSaved: true, pricingRules: rules }
    expect(validateSettingsPatch({ markup_percent: "35", discount_percent: "15" }, saved)).toEqual({
      ok: true,
      patch: { pricing_rules: { ...rules, base_markup_percent: "35", crossed_out: { type: "discount", discount_percent: "15" } } },
    })
    // No markup: the cost (0 %), as the API's missing price was.
    expect(validateSettingsPatch({ markup_percent: null }, saved)).toMatchObject({ ok: true, patch: { pricing_rules: { base_markup_percent: "0" } } })
    // Rules cleared in the same patch: the markup folds into the default rules, not the saved ones.
    expect(validateSettingsPatch({ pricing_rules: null, discount_percent: null }, saved)).toEqual({ ok: true, patch: { pricing_rules: DEFAULT_PRICING_RULES } })
    expect(validateSettingsPatch({ pricing_rules: null, markup_percent: 40 }, saved)).toEqual({
      ok: true,
      patch: { pricing_rules: { ...DEFAULT_PRICING_RULES, base_markup_percent: "40" } },
    })
    // Rules in the same patch are the base the markup folds into.
    expect(validateSettingsPatch({ markup_percent: 40, pricing_rules: { base_markup_percent: 10, rounding: { mode: "none" } } }, saved)).toMatchObject({
      ok: true,
      patch: { pricing_rules: { base_markup_percent: "40", overrides: [] } },
    })
  })

  it("folds a stored discount with a new markup while no rules are saved (as the API combined them)", () => {
    const stored = { ...noPricing, storedApiPricing: { markup_percent: null, discount_percent: "20", old_price_markup_percent: null } }
    expect(validateSettingsPatch({ markup_percent: 30 }, stored)).toEqual({
      ok: true,
      patch: { pricing_rules: { ...DEFAULT_PRICING_RULES, base_markup_percent: "30", crossed_out: { type: "discount", discount_percent: "20" } } },
    })
  })
})

describe("resolveEffectiveSettings", () => {
  const row: SettingsRow = {
    base_url: "http://saved",
    api_key_encrypted: "v1:x:y:z",
    api_key_last4: "9999",
    api_key_hash: "savedhash",
    price_calculation: "min",
    markup_percent: "25",
    discount_percent: null,
    old_price_markup_percent: null,
    poll_interval_minutes: 7,
    stock_location_id: "sloc_1",
    sales_channel_id: null,
    removal_mode: "draft",
    primary_language: "ru",
    enabled: true,
    revision: 4,
  }
  const options = {
    baseUrl: "http://option/",
    apiKey: "option-key-1234",
    pricing: { markup_percent: 30 },
    pollIntervalMinutes: 12,
    salesChannelId: "sc_opt",
  }

  it("uses the options when nothing is saved", () => {
    const s = resolveEffectiveSettings({ row: null, options, decryptedKey: null, hashKey })
    expect(s).toMatchObject({
      baseUrl: "http://option",
      apiKey: "option-key-1234",
      apiKeyLast4: "1234",
      // The API is asked for costs only; the option's markup is folded into the rules.
      pricing: { price_calculation: "max", markup_percent: null, discount_percent: null, old_price_markup_percent: null },
      pricingRules: { ...DEFAULT_PRICING_RULES, base_markup_percent: "30" },
      pricingRulesSaved: false,
      pollIntervalMinutes: 12,
      salesChannelId: "sc_opt",
      removalMode: "delete",
      primaryLanguage: "uk",
      enabled: true,
      mirrorImages: false,
      revision: 0,
    })
  })

  it("mirrors images only when the admin turned it on", () => {
    expect(validateSettingsPatch({ mirror_images: true }, noPricing)).toMatchObject({
      ok: true,
      patch: { mirror_images: true },
    })
    const row = { ...initialRowValues(options), api_key_encrypted: null, api_key_last4: null, api_key_hash: null, revision: 2 }
    expect(resolveEffectiveSettings({ row, options, decryptedKey: null, hashKey }).mirrorImages).toBe(false)
    const on = resolveEffectiveSettings({ row: { ...row, mirror_images: true }, options, decryptedKey: null, hashKey })
    expect(on.mirrorImages).toBe(true)
    expect(toPublicSettings(on).mirror_images).toBe(true)
  })

  it("lets saved settings take precedence", () => {
    const s = resolveEffectiveSettings({ row, options, decryptedKey: "saved-key-9999", hashKey })
    expect(s).toMatchObject({
      baseUrl: "http://saved",
      apiKey: "saved-key-9999",
      apiKeyHash: "savedhash",
      pricing: { price_calculation: "min", markup_percent: null, discount_percent: null, old_price_markup_percent: null },
      pricingRules: { ...DEFAULT_PRICING_RULES, base_markup_percent: "25" },
      pollIntervalMinutes: 7,
      stockLocationId: "sloc_1",
      salesChannelId: "sc_opt",
      removalMode: "draft",
      primaryLanguage: "ru",
      revision: 4,
    })
  })

  it("the public shape has one place for markup: the rules (no API markup parameters)", () => {
    const pub = toPublicSettings(resolveEffectiveSettings({ row, options, decryptedKey: null, hashKey }))
    expect(pub).not.toHaveProperty("markup_percent")
    expect(pub).not.toHaveProperty("discount_percent")
    expect(pub).not.toHaveProperty("old_price_markup_percent")
    expect(pub.pricing_rules.base_markup_percent).toBe("25")
  })

  it("masks the key in the public shape", () => {
    const s = resolveEffectiveSettings({ row, options, decryptedKey: "saved-key-9999", hashKey })
    const pub = toPublicSettings(s)
    expect(pub.api_key).toBe("••••9999")
    expect(pub.api_key_set).toBe(true)
    expect(JSON.stringify(pub)).not.toContain("saved-key-9999")
    expect(maskApiKey(null)).toBeNull()
  })

  it("compares pricing exactly", () => {
    const a = { price_calculation: "max" as const, markup_percent: "30", discount_percent: null, old_price_markup_percent: null }
    expect(samePricing(a, { ...a })).toBe(true)
    expect(samePricing(a, { ...a, markup_percent: "31" })).toBe(false)
    expect(samePricing(a, { ...a, price_calculation: "min" })).toBe(false)
  })
})

describe("pricing rules and brake in the settings", () => {
  const row = (extra: Partial<SettingsRow>): SettingsRow => ({
    base_url: null,
    api_key_encrypted: null,
    api_key_last4: null,
    api_key_hash: null,
    price_calculation: "max",
    markup_percent: "30",
    discount_percent: "10",
    old_price_markup_percent: null,
    poll_interval_minutes: 10,
    stock_location_id: null,
    sales_channel_id: null,
    removal_mode: "delete",
    primary_language: "uk",
    enabled: true,
    revision: 3,
    ...extra,
  })

  it("validates pricing_rules with errors naming the field inside, and normalises them", () => {
    const bad = validateSettingsPatch(
      { pricing_rules: { base_markup_percent: "30", overrides: [{ type: "brand", brand_id: "7", markup_percent: "x" }], rounding: { mode: "none" } } },
      noPricing
    )
    expect(bad).toEqual({ ok: false, errors: [{ field: "pricing_rules.overrides[0].markup_percent", message: "must be a number from -100 to 1000" }] })
    const good = validateSettingsPatch({ pricing_rules: { base_markup_percent: 30.5, rounding: { mode: "whole" } } }, noPricing)
    expect(good.ok && good.patch.pricing_rules).toMatchObject({ base_markup_percent: "30.5", overrides: [], rounding: { mode: "whole", direction: "nearest" } })
    expect(validateSettingsPatch({ pricing_rules: null }, noPricing)).toEqual({ ok: true, patch: { pricing_rules: null } })
  })

  it("takes the brake in the API's names over the current thresholds; a bad one names its field", () => {
    const current = { ...noPricing, brake: { removal_percent: "20", lowered_prices_percent: "10", price_drop_percent: "30" } }
    expect(validateSettingsPatch({ brake: { remove_percent: 35 } }, current)).toEqual({
      ok: true,
      patch: { brake: { removal_percent: "35", lowered_prices_percent: "10", price_drop_percent: "30" } },
    })
    expect(fieldsOf({ brake: { price_drop_share_percent: 101 } }, current)).toEqual(["brake.price_drop_share_percent"])
    expect(fieldsOf({ brake: { removals: 5 } }, current)).toEqual(["brake.removals"])
  })

  it("effective rules: the saved ones, else the API parameters as rules; the public view names the brake as the API does", () => {
    const fromApi = resolveEffectiveSettings({ row: row({}), options: {}, decryptedKey: null, hashKey })
    expect(fromApi.pricingRulesSaved).toBe(false)
    expect(fromApi.pricingRules).toMatchObject({ base_markup_percent: "30", crossed_out: { type: "discount", discount_percent: "10" } })
    const saved = resolveEffectiveSettings({
      row: row({ pricing_rules: { base_markup_percent: "12", rounding: { mode: "none" } }, pricing_rules_revision: 4, brake: { removal_percent: "50" } }),
      options: {},
      decryptedKey: null,
      hashKey,
    })
    expect(saved).toMatchObject({ pricingRulesSaved: true, pricingRulesRevision: 4, pricingRules: { base_markup_percent: "12" } })
    expect(toPublicSettings(saved)).toMatchObject({
      pricing_rules: { base_markup_percent: "12" },
      pricing_rules_revision: 4,
      brake: { remove_percent: "50", price_drop_share_percent: "10", price_drop_percent: "30" },
    })
  })
})

describe("shop-wide field locks in the settings", () => {
  const current = { ...noPricing, fieldLocks: { locked: ["description" as const], auto_lock_on_admin_edit: false } }

  it("takes either part over the saved one", () => {
    expect(validateSettingsPatch({ field_locks: { auto_lock_on_admin_edit: true } }, current)).toEqual({
      ok: true,
      patch: { field_locks: { locked: ["description"], auto_lock_on_admin_edit: true } },
    })
    expect(validateSettingsPatch({ field_locks: { locked: ["title", "title", "images"] } }, current)).toEqual({
      ok: true,
      patch: { field_locks: { locked: ["title", "images"], auto_lock_on_admin_edit: false } },
    })
  })

  it("names the bad field: an unknown lockable field, a non-boolean, an unknown key", () => {
    const fields = (body: unknown) => {
      const r = validateSettingsPatch(body, current)
      return r.ok ? [] : r.errors.map((e) => e.field)
    }
    expect(fields({ field_locks: { locked: ["title", "sku"] } })).toEqual(["field_locks.locked.1"])
    expect(fields({ field_locks: { auto_lock_on_admin_edit: "yes" } })).toEqual(["field_locks.auto_lock_on_admin_edit"])
    expect(fields({ field_locks: { lock: [] } })).toEqual(["field_locks.lock"])
  })

  it("reads a saved default back, and none from an unreadable one", () => {
    expect(fieldLocksOf({ field_locks: { locked: ["prices"], auto_lock_on_admin_edit: true } })).toEqual({ locked: ["prices"], auto_lock_on_admin_edit: true })
    expect(fieldLocksOf({ field_locks: { locked: ["nope"] } })).toEqual({ locked: [], auto_lock_on_admin_edit: false })
    expect(fieldLocksOf(null)).toEqual({ locked: [], auto_lock_on_admin_edit: false })
  })
})
