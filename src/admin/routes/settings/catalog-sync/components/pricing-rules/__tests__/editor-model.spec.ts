import { DEFAULT_PRICING_RULES, type PricingRules, type StoredVariantPrice, planReprice, priceOf } from "../../../../../../../pricing"
import {
  addOverride,
  categoryOptions,
  categoryPathOf,
  checkRules,
  errorFor,
  moveOverride,
  moveSummaryText,
  previewRowsOf,
  removeOverride,
  updateOverride,
  type CategoryOption,
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
    if (!check.ok) expect(errorFor(check.errors, "overrides[0].markup_percent")).toBe("must be a number from -100 to 1000")
  })

  it("moves, removes and updates without touching the others", () => {
    expect(moveOverride(three, 2, 0).overrides.map((o) => o.type)).toEqual(["cost_band", "category", "brand"])
    expect(moveOverride(three, 0, 1).overrides.map((o) => o.type)).toEqual(["brand", "category", "cost_band"])
    expect(moveOverride(three, 0, 3)).toBe(three)
    expect(moveOverride(three, -1, 0)).toBe(three)
    expect(removeOverride(three, 1).overrides.map((o) => o.type)).toEqual(["category", "cost_band"])
    expect(updateOverride(three, 2, { markup_percent: "90" }).overrides[2]).toEqual({
      type: "cost_band",
      min_cost: null,
      max_cost: "200",
      markup_percent: "90",
    })
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
  const products = [
    { catalog_id: "100", title: "Runner", size: "42", cost: "990.31", path: ["1", "2", "3"], brand: "7", now: "1287.40" },
    { catalog_id: "101", title: "Tote", size: "", cost: "150", path: ["4"], brand: null, now: "195.00" },
    { catalog_id: "102", title: "Cap", size: "", cost: "500", path: [], brand: "7", now: "799.00" },
  ]
  const stored: StoredVariantPrice[] = products.map((p) => ({
    variant_id: p.catalog_id,
    cost: p.cost,
    context: { categoryPath: p.path, brandId: p.brand },
    current: { amount: p.now, crossed_out: null },
  }))
  // The server's sample rows (preview-plan.ts) are priced by the same engine.
  const sample = products.map((p, i) => {
    const r = priceOf(p.cost, stored[i].context, rules)
    return {
      catalog_id: p.catalog_id,
      product_id: `prod_${p.catalog_id}`,
      title: p.title,
      size: p.size,
      cost: p.cost,
      current: { amount: p.now, crossed_out: null },
      next: { amount: r.amount, crossed_out: r.crossedOut },
      rule: r.ruleApplied,
      minimum_margin_applied: r.minimumMarginApplied,
      prices_locked: false,
    }
  })

  it("rows: cost, now → new price and crossed-out, with the rule that won in words", () => {
    expect(previewRowsOf(sample, categories, brands)).toEqual([
      {
        key: "100:42",
        title: "Runner (42)",
        cost: "990.31",
        current: "1287.40",
        currentCrossedOut: null,
        amount: "1299.00",
        crossedOut: "1699.00",
        rule: "Category “Sneakers” +30 %, inherited by its subcategories (rule 1)",
        move: "up",
      },
      {
        key: "101:",
        title: "Tote",
        cost: "150",
        current: "195.00",
        currentCrossedOut: null,
        amount: "299.00",
        crossedOut: "399.00",
        rule: "Cost below 200 ₴ +80 % (rule 3; no category or brand override matched)",
        move: "up",
      },
      {
        key: "102:",
        title: "Cap",
        cost: "500",
        current: "799.00",
        currentCrossedOut: null,
        amount: "799.00",
        crossedOut: "999.00",
        rule: "Brand “Nike” +50 % (rule 2; no category override matched)",
        move: "same",
      },
    ])
  })

  it("the move summary in words", () => {
    const summary = planReprice(stored, rules).summary
    expect(summary).toMatchObject({ priced: 3, moved: 2, up: 2, down: 0, crossed_out_only: 1 })
    // 1287.40 → 1299 (+0.90 %), 195 → 299 (+53.33 %)
    expect(moveSummaryText(summary)).toBe("2 of 3 prices will move (2 up, 0 down); largest +53.33 %, median +27.12 %; 1 more change only the crossed-out price")
    const today = { ...DEFAULT_PRICING_RULES, base_markup_percent: "30" }
    const atToday = stored.map((v) => ({ ...v, current: { amount: priceOf(v.cost!, v.context, today).amount, crossed_out: null } }))
    expect(moveSummaryText(planReprice(atToday, today).summary)).toBe("No price will change (3 checked).")
    expect(moveSummaryText(planReprice(atToday, { ...today, crossed_out: { type: "discount", discount_percent: "20" } }).summary)).toBe(
      "No selling price moves; 3 of 3 crossed-out prices change."
    )
    expect(moveSummaryText(planReprice([], rules).summary)).toBe("No stored costs yet: the first sync stores them.")
  })

  it("counts in the move summary are grouped like every other count on the page (7,286, not 7286)", () => {
    const summary = { ...planReprice(stored, rules).summary, priced: 7286, moved: 1080, up: 1079, down: 1, crossed_out_only: 1200, changed: 2280 }
    expect(moveSummaryText(summary)).toMatch(/^1,080 of 7,286 prices will move \(1,079 up, 1 down\);.*; 1,200 more change only the crossed-out price$/)
    expect(moveSummaryText({ ...summary, changed: 0 })).toBe("No price will change (7,286 checked).")
  })

  it("says how many sizes price locks hold (issue 43: the 3 locked sizes were read as moves)", () => {
    const summary = { ...planReprice(stored, rules).summary, priced: 800, moved: 797, up: 797, down: 0, crossed_out_only: 0, changed: 797, held_by_lock: 3 }
    expect(moveSummaryText(summary)).toMatch(/^797 of 800 prices will move \(797 up, 0 down\);.*; 3 sizes held by price locks$/)
    expect(moveSummaryText({ ...summary, changed: 0, moved: 0, up: 0 })).toBe("No price will change (800 checked; 3 sizes held by price locks).")
    // A sampled product whose prices are locked is said to keep them, not to follow a rule.
    expect(previewRowsOf([{ ...sample[0], prices_locked: true }], categories, brands)[0].rule).toBe("Prices locked on this product: kept")
  })
})
