import { filterBody, filterFieldOf, filterToForm, keptSentence } from "../filter-form"

describe("filter form", () => {
  it("round-trips a saved filter through the form's pickers", () => {
    const saved = {
      include_category_ids: ["12", "40"],
      exclude_category_ids: [],
      include_brand_ids: ["7"],
      exclude_brand_ids: [],
      in_stock_only: true,
      new_only: false,
      cost_min: "100",
      cost_max: null,
    }
    const form = filterToForm(saved)
    expect(form.include_category_ids).toEqual(["12", "40"])
    expect(filterBody({ ...form, exclude_brand_ids: ["3", "4", "3"] })).toEqual({ ...saved, exclude_brand_ids: ["3", "4"] })
  })
  it("finds the form field a refusal names", () => {
    expect(filterFieldOf("filter.cost_max")).toBe("cost_max")
    expect(filterFieldOf("filter.include_brand_ids.0")).toBe("include_brand_ids")
    expect(filterFieldOf("markup_percent")).toBeNull()
  })
})

describe("the filter count's sentence", () => {
  it("counts against the last full pass, names the shop's own number and the unstored conditions in plain words", () => {
    const text = keptSentence({
      kept: 312,
      total: 949,
      not_counted: ["in_stock_only", "new_only"],
      pass_finished_at: "2026-11-23T10:00:00Z",
      shop_products: 1549,
    })
    expect(text).toMatch(
      /^Keeps 312 of the 949 catalog products from the last full pass \(finished .+\) that the catalog still has\. The shop holds 1,549 products from the catalog now\. /
    )
    expect(text).toContain("Not counted: whether a product is in stock and whether a product is a new arrival")
    // Not "which the shop does not store": the shop stores its products' stock.
    expect(text).toContain("which the record of the last pass does not keep")
    expect(text).not.toMatch(/in_stock_only|new_only/)
    expect(keptSentence({ kept: 5, total: 5, not_counted: [], pass_finished_at: null, shop_products: 0 })).toMatch(/^No full pass has finished yet/)
  })
})
