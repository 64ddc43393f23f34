import {
  type SettingsRow,
  maskApiKey,
  resolveEffectiveSettings,
  samePricing,
  toPublicSettings,
  validateSettingsPatch,
} from "../settings"

const noPricing = {
  pricing: { price_calculation: "max" as const, markup_percent: null, discount_percent: null, old_price_markup_percent: null },
}
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
    expect(result.patch).toMatchObject({
      base_url: "http://127.0.0.1:4010",
      api_key: "key-1234",
      markup_percent: "30",
      discount_percent: "20.5",
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
    [{ price_calculation: "median" }, "price_calculation"],
    [{ surprise: 1 }, "surprise"],
  ])("refuses %j naming %s", (body, field) => {
    expect(fieldsOf(body)).toContain(field)
  })

  it("treats the masked key echoed back as no change", () => {
    const result = validateSettingsPatch({ api_key: "••••1234", markup_percent: 10 }, noPricing)
    expect(result.ok && "api_key" in result.patch).toBe(false)
    expect(result.ok && result.patch.markup_percent).toBe("10")
  })

  it("accepts the bounds", () => {
    expect(fieldsOf({ markup_percent: 0, discount_percent: "99.99", poll_interval_minutes: 15 })).toEqual([])
    expect(fieldsOf({ markup_percent: 1000, old_price_markup_percent: 1000 })).toEqual([])
  })

  it("refuses discount and old-price markup together, also against the saved value", () => {
    expect(fieldsOf({ discount_percent: 10, old_price_markup_percent: 20 })).toEqual(["discount_percent"])
    const saved = { pricing: { ...noPricing.pricing, discount_percent: "10" } }
    expect(fieldsOf({ old_price_markup_percent: 20 }, saved)).toEqual(["old_price_markup_percent"])
    // clearing the discount in the same patch is fine
    expect(fieldsOf({ discount_percent: null, old_price_markup_percent: 20 }, saved)).toEqual([])
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
      pricing: { price_calculation: "max", markup_percent: "30", discount_percent: null },
      pollIntervalMinutes: 12,
      salesChannelId: "sc_opt",
      removalMode: "delete",
      primaryLanguage: "uk",
      enabled: true,
      revision: 0,
    })
  })

  it("lets saved settings take precedence", () => {
    const s = resolveEffectiveSettings({ row, options, decryptedKey: "saved-key-9999", hashKey })
    expect(s).toMatchObject({
      baseUrl: "http://saved",
      apiKey: "saved-key-9999",
      apiKeyHash: "savedhash",
      pricing: { price_calculation: "min", markup_percent: "25" },
      pollIntervalMinutes: 7,
      stockLocationId: "sloc_1",
      salesChannelId: "sc_opt",
      removalMode: "draft",
      primaryLanguage: "ru",
      revision: 4,
    })
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
