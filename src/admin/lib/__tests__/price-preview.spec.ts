import { computePricePreview } from "../price-preview"

const none = { discount_percent: null, old_price_markup_percent: null }

describe("computePricePreview", () => {
  it("applies markup and discount like the issue's example", () => {
    expect(computePricePreview({ markup_percent: "30", discount_percent: "20", old_price_markup_percent: null })).toEqual({
      cost: "1000.00",
      price: "1300.00",
      oldPrice: "1625.00",
    })
  })

  it("takes the crossed-out markup from the cost, not the price", () => {
    expect(computePricePreview({ cost: "1000", markup_percent: "30", discount_percent: null, old_price_markup_percent: "60" })).toEqual({
      cost: "1000.00",
      price: "1300.00",
      oldPrice: "1600.00",
    })
  })

  it("rounds half up at every step, as the API does", () => {
    // 0.05 * 1.05 = 0.0525 -> 0.05 ; a float would give 0.052499999...
    expect(computePricePreview({ cost: "0.05", markup_percent: "5", ...none }).price).toBe("0.05")
    // 1.005 -> cost 1.01 first, then 1.01 * 1.5 = 1.515 -> 1.52
    expect(computePricePreview({ cost: "1.005", markup_percent: "50", ...none })).toEqual({
      cost: "1.01",
      price: "1.52",
      oldPrice: null,
    })
    // old price from the rounded price: 1.52 / 0.7 = 2.171428... -> 2.17
    expect(computePricePreview({ cost: "1.005", markup_percent: "50", discount_percent: "30", old_price_markup_percent: null }).oldPrice).toBe("2.17")
    // 333.33 / (1 - 0.33) = 497.507462... -> 497.51
    expect(computePricePreview({ cost: "333.33", markup_percent: "0", discount_percent: "33", old_price_markup_percent: null })).toEqual({
      cost: "333.33",
      price: "333.33",
      oldPrice: "497.51",
    })
  })

  it("handles decimal percentages exactly", () => {
    expect(computePricePreview({ cost: "999.99", markup_percent: "12.345", ...none }).price).toBe("1123.44")
  })

  it("shows only the cost without a markup, like the API", () => {
    expect(computePricePreview({ markup_percent: null, discount_percent: "20", old_price_markup_percent: null })).toEqual({
      cost: "1000.00",
      price: null,
      oldPrice: null,
    })
    expect(computePricePreview({ markup_percent: "  ", ...none }).price).toBeNull()
  })

  it("gives no crossed-out price for an impossible discount or unparsable input", () => {
    expect(computePricePreview({ markup_percent: "30", discount_percent: "100", old_price_markup_percent: null }).oldPrice).toBeNull()
    expect(computePricePreview({ markup_percent: "abc", ...none }).price).toBeNull()
  })

  it("keeps a zero discount as the price itself", () => {
    expect(computePricePreview({ markup_percent: "30", discount_percent: "0", old_price_markup_percent: null }).oldPrice).toBe("1300.00")
  })
})
