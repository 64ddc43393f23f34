import { filterBody, filterFieldOf, filterToForm } from "../filter-form"

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
