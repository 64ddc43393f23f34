import { DEFAULT_PRICING_RULES } from "../../pricing/rules"
import { connectionCheckTarget, normaliseBaseUrl, parseBaseUrl, resolveEffectiveSettings, validateSettingsPatch } from "../settings"

const current = {
  pricingRules: DEFAULT_PRICING_RULES,
  pricingRulesSaved: false,
  storedApiPricing: { markup_percent: null, discount_percent: null, old_price_markup_percent: null },
}

describe("base URL rule (admin input and plugin options)", () => {
  it("accepts http(s) and strips /v1 and trailing slashes", () => {
    expect(parseBaseUrl(" https://api.example.com/v1/ ")).toEqual({ ok: true, url: "https://api.example.com" })
    expect(parseBaseUrl("http://127.0.0.1:4010")).toEqual({ ok: true, url: "http://127.0.0.1:4010" })
  })

  it.each([
    ["ftp://api.example.com", "http(s)"],
    ["api.example.com", "http(s)"],
    ["https://user:pw@api.example.com", "credentials"],
    ["https://user@api.example.com", "credentials"],
    ["https://api.example.com/?x=1", "query"],
    ["https://api.example.com/?", "query"],
    ["https://api.example.com/#frag", "fragment"],
  ])("refuses %s", (url, words) => {
    const parsed = parseBaseUrl(url)
    expect(parsed.ok).toBe(false)
    expect((parsed as { message: string }).message).toContain(words)
    const patch = validateSettingsPatch({ base_url: url }, current)
    expect(patch.ok).toBe(false)
    expect((patch as any).errors[0].field).toBe("base_url")
  })

  it("an options URL goes through the same rule (no scheme: unset, not a crash later)", () => {
    expect(normaliseBaseUrl("catalog.example.com")).toBeNull()
    expect(normaliseBaseUrl("https://u:p@catalog.example.com")).toBeNull()
    expect(normaliseBaseUrl("https://catalog.example.com/v1")).toBe("https://catalog.example.com")
    const settings = resolveEffectiveSettings({
      row: null,
      options: { baseUrl: "catalog.example.com", apiKey: "k" },
      decryptedKey: null,
      hashKey: () => "h",
    })
    expect(settings.baseUrl).toBeNull()
  })
})

describe("api_key input", () => {
  it.each(["abc\r\ndef", "abc def", "abc\tdef", "ключ"])("refuses %j, naming api_key", (key) => {
    const patch = validateSettingsPatch({ api_key: key }, current)
    expect(patch.ok).toBe(false)
    expect((patch as any).errors[0].field).toBe("api_key")
  })

  it("accepts a printable key and still treats the masked echo as no change", () => {
    expect(validateSettingsPatch({ api_key: "sk_live-AZaz09_~!" }, current)).toEqual({ ok: true, patch: { api_key: "sk_live-AZaz09_~!" } })
    expect(validateSettingsPatch({ api_key: "••••1234" }, current)).toEqual({ ok: true, patch: {} })
  })
})

describe("connectionCheckTarget: the saved key only goes to the saved URL", () => {
  const current = { baseUrl: "https://catalog.example.com", apiKey: "saved-key" }

  it("a different base_url without api_key is refused, naming api_key", () => {
    const target = connectionCheckTarget({ base_url: "http://attacker.example" }, current)
    expect(target).toEqual({ ok: false, errors: [expect.objectContaining({ field: "api_key" })] })
    // The masked echo is not a key either.
    expect(connectionCheckTarget({ base_url: "http://attacker.example", api_key: "••••-key" }, current).ok).toBe(false)
    // Nor is a first URL when only the options supplied the key.
    expect(connectionCheckTarget({ base_url: "http://x.example" }, { baseUrl: null, apiKey: "options-key" }).ok).toBe(false)
  })

  it("a different base_url with its own key uses that key", () => {
    expect(connectionCheckTarget({ base_url: "http://other.example", api_key: "other" }, current)).toEqual({
      ok: true,
      baseUrl: "http://other.example",
      apiKey: "other",
    })
  })

  it("the saved URL (given or not) may use the saved key", () => {
    expect(connectionCheckTarget({}, current)).toEqual({ ok: true, ...current })
    expect(connectionCheckTarget({ base_url: current.baseUrl }, current)).toEqual({ ok: true, ...current })
    expect(connectionCheckTarget({ api_key: "new" }, current)).toEqual({ ok: true, baseUrl: current.baseUrl, apiKey: "new" })
  })

  it("names what is missing", () => {
    expect(connectionCheckTarget({}, { baseUrl: null, apiKey: null })).toEqual({ ok: false, errors: [expect.objectContaining({ field: "base_url" })] })
    expect(connectionCheckTarget({}, { baseUrl: "https://a.example", apiKey: null })).toEqual({
      ok: false,
      errors: [expect.objectContaining({ field: "api_key" })],
    })
  })
})
