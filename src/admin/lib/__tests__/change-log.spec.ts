import { changeKindLabel, changeRowLabel, changedFields, keptForOrderRow, keptForOrdersCountText, omittedSummary, priceChangeText } from "../change-log"

describe("change log words", () => {
  it("lists what an update changed in a fixed order", () => {
    expect(changedFields({ price_changed: true, stock_changed: false, sizes_changed: true, images_changed: false, text_changed: true })).toEqual([
      "price",
      "sizes",
      "text",
    ])
  })
  it("summarises rows the cap left out, by kind", () => {
    expect(omittedSummary({ updated: 1200, created: 40 })).toBe("40 created, 1,200 updated")
    expect(omittedSummary({})).toBeNull()
    expect(omittedSummary(null)).toBeNull()
  })
  it("words a repricing; equal lowest prices say another size was repriced", () => {
    expect(priceChangeText("1287.50", "1300.10")).toBe("1,287.50 ₴ → 1,300.10 ₴")
    expect(priceChangeText("2405.55", "2405.55")).toBe("2,405.55 ₴ (lowest price unchanged; another size changed)")
    expect(priceChangeText(null, "999.00")).toBe("999.00 ₴")
    expect(priceChangeText("999.00", null)).toBe("999.00 ₴ → no price")
    expect(priceChangeText(null, null)).toBeNull()
  })
  it('names a stock-only update "Stock only", as the run counts it, never "Updated · stock"', () => {
    const row = { kind: "updated" as const, price_changed: false, stock_changed: true, sizes_changed: false, images_changed: false, text_changed: false }
    expect(changeRowLabel(row)).toBe("Stock only")
    // A stock lock held the stock: still the run's stock-only product.
    expect(changeRowLabel({ ...row, stock_changed: false, held: { stock: true } })).toBe("Stock only")
    // An update that changed its price (or had its price held by a lock) stays "Updated".
    expect(changeRowLabel({ ...row, price_changed: true })).toBe("Updated")
    expect(changeRowLabel({ ...row, held: { prices: "100.00" } })).toBe("Updated")
    expect(changeRowLabel({ ...row, kind: "created" as const })).toBe("Created")
  })
  it("labels kinds", () => {
    expect(changeKindLabel("drafted")).toBe("Drafted")
  })
  it("names what an open order keeps (the list's heading says why and until when)", () => {
    const product = {
      kind: "product" as const,
      product_id: "prod_1",
      title: "Кросівки Runner",
      size: null,
      catalog_id: "77",
      run_id: "run_1",
      kept_at: "2026-11-28T08:00:00.000Z",
    }
    expect(keptForOrderRow(product)).toEqual({ name: "Кросівки Runner", what: " (the whole product)" })
    expect(keptForOrderRow({ ...product, kind: "size", size: "42" })).toEqual({ name: "Кросівки Runner", what: ", size 42" })
    expect(keptForOrderRow({ ...product, title: null })).toEqual({ name: "catalog id 77", what: " (the whole product)" })
    expect(keptForOrderRow({ ...product, title: null, catalog_id: null })).toEqual({ name: "prod_1", what: " (the whole product)" })
  })
})

describe("the kept-for-orders count (issue 43, third review)", () => {
  it('names products and sizes apart: "1 product and 1 size", never "2 sizes and products"', () => {
    expect(keptForOrdersCountText(2, { products: 1, sizes: 1 })).toBe("1 product and 1 size")
    expect(keptForOrdersCountText(3, { products: 0, sizes: 3 })).toBe("3 sizes")
    expect(keptForOrdersCountText(1_205, { products: 5, sizes: 1_200 })).toBe("5 products and 1,200 sizes")
    // An answer without the split (an older server): the count as before.
    expect(keptForOrdersCountText(2)).toBe("2 sizes and products")
  })
})
