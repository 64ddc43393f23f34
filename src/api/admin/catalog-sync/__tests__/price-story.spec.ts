import { amountText, keptSizesOf, markupPercent, priceStory } from "../products/[product_id]/prices/price-story"

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

describe("the widget's sizes (issue 43, review of the admin)", () => {
  // S, M, L, XL ranked 0..3; the catalog removed M while an open order reserved it: the sync ranked
  // S, L, XL 0..2 and M kept its rank 1, the same as L's.
  const sizes = [
    { id: "vXL", title: "XL", price_set_id: null, variant_rank: 2 },
    { id: "vL", title: "L", price_set_id: null, variant_rank: 1 },
    { id: "vS", title: "S", price_set_id: null, variant_rank: 0 },
    { id: "vM", title: "M", price_set_id: null, variant_rank: 1 },
  ]

  it("lists sizes in the shop's variant order, a kept size in its place by size", () => {
    expect(priceStory(sizes, [], null).map((s) => s.size)).toEqual(["S", "M", "L", "XL"])
    // Unranked variants come after the ranked ones, in size order.
    expect(
      priceStory([{ id: "a", title: "44", price_set_id: null }, { id: "b", title: "42", price_set_id: null }, ...sizes], [], null).map((s) => s.size)
    ).toEqual(["S", "M", "L", "XL", "42", "44"])
  })

  it("marks a size kept only for an open order, with since when; not one the catalog sent again", () => {
    const pending = [
      { kind: "size", subject_id: "vM", created_at: new Date("2026-12-06T08:08:00.000Z") },
      { kind: "size", subject_id: "vXL", created_at: "2026-12-05T10:00:00.000Z" },
      { kind: "product", subject_id: "prod_1", created_at: "2026-12-05T10:00:00.000Z" },
    ]
    // XL is back on sale: the product map claims its variant again.
    const kept = keptSizesOf(pending, new Set(["vXL"]))
    expect([...kept]).toEqual([["vM", "2026-12-06T08:08:00.000Z"]])
    const story = priceStory(sizes, [], null, new Map(), "uah", kept)
    expect(story.map((s) => [s.size, s.kept_for_order ?? null])).toEqual([
      ["S", null],
      ["M", { since: "2026-12-06T08:08:00.000Z" }],
      ["L", null],
      ["XL", null],
    ])
  })
})
