import { DEFAULT_VOCABULARY, resolveVocabulary } from "../shop-vocabulary"
import { DEFAULT_REGION, regionFromOptions } from "../settings"

describe("shop vocabulary", () => {
  it("speaks Ukrainian and Russian by default", () => {
    expect(resolveVocabulary(undefined)).toEqual({
      uk: { option: "Розмір", oneSize: "Один розмір" },
      ru: { option: "Размер", oneSize: "Один размер" },
    })
  })

  it("takes the words the plugin options give, trimmed; blank or missing ones keep the default", () => {
    const v = resolveVocabulary({ uk: { option: "  Розмір взуття ", oneSize: "" }, ru: { oneSize: "Универсальный" } })
    expect(v.uk).toEqual({ option: "Розмір взуття", oneSize: "Один розмір" })
    expect(v.ru).toEqual({ option: "Размер", oneSize: "Универсальный" })
    expect(DEFAULT_VOCABULARY.uk.option).toBe("Розмір")
  })
})

describe("region setup from plugin options", () => {
  it("defaults to Україна with ua, created when missing", () => {
    expect(regionFromOptions({})).toEqual(DEFAULT_REGION)
    expect(DEFAULT_REGION).toEqual({ create: true, name: "Україна", countries: ["ua"] })
  })

  it("accepts a name, two-letter countries (lower-cased) and create: false", () => {
    expect(regionFromOptions({ region: { name: " Ukraine ", countries: ["UA", "md", "xyz", ""], create: false } })).toEqual({
      create: false,
      name: "Ukraine",
      countries: ["ua", "md"],
    })
  })
})
