import { DEFAULT_PRICING_RULES, type PricingRules } from "../../../../../../../pricing"
import {
  addOverride,
  categoryOptions,
  categoryPathOf,
  checkRules,
  errorFor,
  moveOverride,
  moveSummary,
  moveSummaryText,
  previewRows,
  removeOverride,
  sampleProducts,
  storedPricesOf,
  updateOverride,
  type CategoryOption,
  type PreviewProduct,
} from "../editor-model"

const categories: CategoryOption[] = [
  { id: "1", name: "Shoes", parent_id: null },
  { id: "2", name: "Sneakers", parent_id: "1" },
  { id: "3", name: "Running", parent_id: "2" },
  { id: "4", name: "Bags", parent_id: null },
]
const brands = [{ id: "7", name: "Nike" }]

describe("editing the override list", () => {
  const three: PricingRules = {
    ...DEFAULT_PRICING_RULES,
    overrides: [
      { type: "category", category_id: "1", markup_percent: "10" },
      { type: "brand", brand_id: "7", markup_percent: "20" },
      { type: "cost_band", min_cost: null, max_cost: "200", markup_percent: "80" },
    ],
  }

  it("adds an empty override of each kind at the end", () => {
    expect(addOverride(DEFAULT_PRICING_RULES, "cost_band").overrides).toEqual([{ type: "cost_band", min_cost: null, max_cost: "", markup_percent: "" }])
    expect(addOverride(three, "brand").overrides[3]).toEqual({ type: "brand", brand_id: "", markup_percent: "" })
    // A fresh override is incomplete and says where.
    const check = checkRules(addOverride(DEFAULT_PRICING_RULES, "category"))
    expect(check.ok).toBe(false)
    if (!check.ok) expect(errorFor(check.errors, "overrides[0].markup_percent")).toBe("must be a number")
  })

  it("moves, removes and updates without touching the others", () => {
    expect(moveOverride(three, 2, 0).overrides.map((o) => o.type)).toEqual(["cost_band", "category", "brand"])
    expect(moveOverride(three, 0, 1).overrides.map((o) => o.type)).toEqual(["brand", "category", "cost_band"])
    expect(moveOverride(three, 0, 3)).toBe(three)
    expect(moveOverride(three, -1, 0)).toBe(three)
    expect(removeOverride(three, 1).overrides.map((o) => o.type)).toEqual(["category", "cost_band"])
    expect(updateOverride(three, 2, { markup_percent: "90" }).overrides[2]).toEqual({ type: "cost_band", min_cost: null, max_cost: "200", markup_percent: "90" })
    expect(three.overrides[2].markup_percent).toBe("80")
  })
})

describe("category tree", () => {
  it("paths from the root, safe against a missing parent and a cycle", () => {
    expect(categoryPathOf(categories, "3")).toEqual(["1", "2", "3"])
    expect(categoryPathOf(categories, "4")).toEqual(["4"])
    expect(categoryPathOf(categories, null)).toEqual([])
    expect(categoryPathOf([{ id: "9", name: "Orphan", parent_id: "8" }], "9")).toEqual(["8", "9"])
    const cycle = [
      { id: "a", name: "A", parent_id: "b" },
      { id: "b", name: "B", parent_id: "a" },
    ]
    expect(categoryPathOf(cycle, "a")).toEqual(["b", "a"])
  })

  it("picker labels are full paths, sorted", () => {
    expect(categoryOptions(categories)).toEqual([
      { value: "4", label: "Bags" },
      { value: "1", label: "Shoes" },
      { value: "2", label: "Shoes › Sneakers" },
      { value: "3", label: "Shoes › Sneakers › Running" },
    ])
  })
})

describe("preview", () => {
  const products: PreviewProduct[] = [
    { catalog_id: "100", title: "Runner", size: "42", cost: "990.31", category_id: "3", brand_id: "7", current: { amount: "1287.40", crossed_out: null } },
    { catalog_id: "101", title: "Tote", cost: "150", category_id: "4", brand_id: null, current: { amount: "195.00", crossed_out: null } },
    { catalog_id: "102", title: "Cap", cost: "500", category_id: null, brand_id: "7", current: { amount: "650.00", crossed_out: null } },
    { catalog_id: "103", title: "Sold out", cost: null, category_id: null, brand_id: null, current: { amount: null, crossed_out: null } },
  ]
  const rules: PricingRules = {
    ...DEFAULT_PRICING_RULES,
    base_markup_percent: "30",
    overrides: [
      { type: "category", category_id: "2", markup_percent: "30" },
      { type: "brand", brand_id: "7", markup_percent: "50" },
      { type: "cost_band", min_cost: null, max_cost: "200", markup_percent: "80" },
    ],
    rounding: { mode: "ending", ending: "99", direction: "up" },
    crossed_out: { type: "discount", discount_percent: "20" },
  }

  it("rows: cost → price → crossed-out, with the rule that won", () => {
    const rows = previewRows(products, rules, categories, brands)
    expect(rows.map(({ key, ...r }) => r)).toEqual([
      {
        title: "Runner (42)",
        cost: "990.31",
        amount: "1299.00",
        crossedOut: "1699.00",
        rule: "Category “Sneakers” +30 %, inherited by its subcategories (rule 1)",
        current: "1287.40",
      },
      { title: "Tote", cost: "150", amount: "299.00", crossedOut: "399.00", rule: "Cost below 200 ₴ +80 % (rule 3; no category or brand override matched)", current: "195.00" },
      { title: "Cap", cost: "500", amount: "799.00", crossedOut: "999.00", rule: "Brand “Nike” +50 % (rule 2; no category override matched)", current: "650.00" },
      { title: "Sold out", cost: null, amount: null, crossedOut: null, rule: "No cost: not priced", current: null },
    ])
  })

  it("the move summary over stored prices", () => {
    const summary = moveSummary(storedPricesOf(products, categories), rules)
    expect(summary).toMatchObject({ priced: 3, moved: 3, up: 3, down: 0 })
    // 1287.40 → 1299 (+0.90 %), 195 → 299 (+53.33 %), 650 → 799 (+22.92 %)
    expect(moveSummaryText(summary)).toBe("3 of 3 prices will move (3 up, 0 down); largest +53.33 %, median +22.92 %")
    // Today's API prices (30 %) unchanged: nothing moves; adding a discount moves only crossed-out prices.
    const today = { ...DEFAULT_PRICING_RULES, base_markup_percent: "30" }
    expect(moveSummaryText(moveSummary(storedPricesOf(products, categories), today))).toBe("No price will change (3 checked).")
    expect(
      moveSummaryText(moveSummary(storedPricesOf(products, categories), { ...today, crossed_out: { type: "discount", discount_percent: "20" } })),
    ).toBe("No selling price moves; 3 of 3 crossed-out prices change.")
    expect(moveSummaryText(moveSummary([], rules))).toBe("No stored costs yet: the first sync stores them.")
  })

  it("samples 10 products evenly and deterministically", () => {
    const many = Array.from({ length: 95 }, (_, i) => i)
    expect(sampleProducts(many)).toEqual([0, 9, 19, 28, 38, 47, 57, 66, 76, 85])
    expect(sampleProducts([1, 2, 3])).toEqual([1, 2, 3])
  })
})
