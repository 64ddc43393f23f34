// A price the catalog sends as a JSON number (130.5, not "130.5") keeps every digit from the
// response text to the amount Medusa is given: the client's parser, the card schema and the
// card's mapping, and the stored cost priced by the shop's rules. A number that cannot be a
// price (3 decimals) rejects the card, naming the field; nothing is truncated to 130.
import { parseCatalogJson } from "../../catalog-client/json"
import { productCardSchema } from "../../catalog-client/schemas"
import { DEFAULT_PRICING_RULES, priceOf } from "../../pricing"
import { mapCardToProduct } from "../map-card"

const cardText = (price: string, cost: string) =>
  `{"id":9007199254740993,"sku":"NUM-1","name":"Numeric","name_uk":"Числова","name_ru":"Числовая","cost_price":${cost},"price":${price},"in_stock":true,` +
  `"sizes":[{"size":"40","stock":2,"cost_price":${cost},"price":${price}},{"size":"41","stock":1,"cost_price":${cost},"price":${price}}],` +
  `"images":[{"url":"https://img.example/1/main.jpg","is_main":true}],"sync_version":1}`

describe("prices as JSON numbers", () => {
  it("130.5 stays 130.5 through the client, the schema and the mapping (never 130)", () => {
    const card = productCardSchema.parse(parseCatalogJson(cardText("130.5", "100.25")))
    expect([card.price, card.cost_price, card.sizes.map((s) => [s.price, s.cost_price])]).toEqual([
      "130.5",
      "100.25",
      [
        ["130.5", "100.25"],
        ["130.5", "100.25"],
      ],
    ])
    const product = mapCardToProduct(card, { primaryLanguage: "uk", salesChannelId: null } as never)
    expect(product.variants.map((v) => v.amount)).toEqual(["130.50", "130.50"])
  })

  it("a stored cost that came as a number is priced exactly by the shop's rules", () => {
    const card = productCardSchema.parse(parseCatalogJson(cardText("130.5", "100.25")))
    const rules = { ...DEFAULT_PRICING_RULES, base_markup_percent: "30" }
    expect(priceOf(card.sizes[0].cost_price!, { categoryPath: [], brandId: null }, rules).amount).toBe("130.33")
  })

  it("a number that is not a price rejects the card with the field and the reason", () => {
    const parsed = productCardSchema.safeParse(parseCatalogJson(cardText("130.505", "100")))
    expect(parsed.success).toBe(false)
    expect(parsed.error!.issues.map((i) => [i.path.join("."), i.message])).toContainEqual(["price", expect.stringMatching(/decimals/)])
  })
})
