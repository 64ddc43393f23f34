import { amountText, markupPercent, priceStory } from "../products/[product_id]/prices/price-story"

const variants = [
  { id: "v1", title: "42", sku: "A-42", price_set_id: "ps1" },
  { id: "v2", title: "43", sku: "A-43", price_set_id: "ps2" },
  { id: "v3", title: "44", sku: "A-44", price_set_id: "ps3" },
]

/** v1: base 1625 with a sale price of 1300.1; v2: base 999.99 only; v3: no price. */
const basePricesAndOneSale = [
  { price_set_id: "ps1", currency_code: "uah", amount: 1625, raw_amount: { value: "1625" } },
  { price_set_id: "ps1", price_list_id: "plist_sale", currency_code: "uah", amount: 1300.1, raw_amount: { value: "1300.1" } },
  { price_set_id: "ps2", currency_code: "uah", amount: 999.99, raw_amount: { value: "999.99" } },
]

describe("priceStory", () => {
  it("a sale-list price below the base sells, and the base is crossed out; exact decimals from raw_amount", () => {
    const sizes = priceStory(variants, basePricesAndOneSale, "plist_sale")
    expect(sizes[0]).toEqual({ variant_id: "v1", size: "42", sku: "A-42", selling: "1300.10", crossed_out: "1625.00", cost: null, markup_percent: null })
    expect(sizes[1]).toMatchObject({ selling: "999.99", crossed_out: null })
    // No price: the product is a draft because the catalog has none for this size.
    expect(sizes[2]).toMatchObject({ selling: null, crossed_out: null })
  })
  it("ignores other price lists and currencies, and a sale price not below the base", () => {
    const sizes = priceStory(
      variants.slice(0, 1),
      [
        { price_set_id: "ps1", currency_code: "uah", amount: 100, raw_amount: { value: "100" } },
        { price_set_id: "ps1", price_list_id: "plist_other", currency_code: "uah", amount: 50 },
        { price_set_id: "ps1", currency_code: "eur", amount: 3 },
        { price_set_id: "ps1", price_list_id: "plist_sale", currency_code: "uah", amount: 120 },
      ],
      "plist_sale"
    )
    expect(sizes[0]).toMatchObject({ selling: "100.00", crossed_out: null })
  })
  it("amountText keeps 13-digit amounts exact", () => {
    expect(amountText({ amount: 1234567890123.45, raw_amount: { value: "1234567890123.45" } })).toBe("1234567890123.45")
    expect(amountText({ amount: null })).toBeNull()
  })
  it("each size's stored cost, with the markup its selling price makes over it (exact decimals)", () => {
    const sizes = priceStory(
      variants,
      basePricesAndOneSale,
      "plist_sale",
      new Map([
        ["v1", "1000.077"],
        ["v2", null],
        ["v3", "500"],
      ])
    )
    // The markup is over the selling price (the sale price here), not the crossed-out one.
    expect(sizes[0]).toMatchObject({ selling: "1300.10", cost: "1000.08", markup_percent: "30.00" })
    expect(sizes[1]).toMatchObject({ selling: "999.99", cost: null, markup_percent: null })
    // A cost without a price (a draft size): no markup.
    expect(sizes[2]).toMatchObject({ selling: null, cost: "500.00", markup_percent: null })
  })
  it("markupPercent: exact over 2^53, none at a zero cost", () => {
    expect(markupPercent("1300.00", "1000.00")).toBe("30.00")
    expect(markupPercent("9007199254740993.30", "9007199254740993.00")).toBe("0.00")
    expect(markupPercent("90.00", "100.00")).toBe("-10.00")
    expect(markupPercent("10.00", "0.00")).toBeNull()
    expect(markupPercent(null, "1.00")).toBeNull()
  })
})
