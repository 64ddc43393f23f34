import { buildCategoryTree, subtreeIds } from "../category-tree"
import { cardMatchesFilter, isKeepEverything, parseCatalogFilter, type FilterableCard } from "../filter"
import { SHOE_AND_BAG_CATEGORIES } from "./category-fixture"

// 1 Shoes ─ 2 Sneakers ─ 3 Kids sneakers;  1 ─ 4 Boots;  10 Bags;  a 20 ⇄ 21 cycle
const tree = buildCategoryTree([...SHOE_AND_BAG_CATEGORIES, { id: "20", parent_id: "21" }, { id: "21", parent_id: "20" }])

const card = (over: Partial<FilterableCard> = {}): FilterableCard => ({
  category_id: "3",
  brand: { id: "7" },
  in_stock: true,
  cost_price: "1000.00",
  is_new: false,
  ...over,
})

describe("catalog filter schema", () => {
  it("defaults to keeping everything and keeps 64-bit ids as exact text", () => {
    expect(isKeepEverything(parseCatalogFilter({}))).toBe(true)
    const f = parseCatalogFilter({ include_category_ids: ["9223372036854775807", 5, "5"] })
    expect(f.include_category_ids).toEqual(["9223372036854775807", "5"])
  })

  it("refuses ids out of range, floats for money, and an inverted band", () => {
    expect(() => parseCatalogFilter({ include_brand_ids: ["9223372036854775808"] })).toThrow()
    expect(() => parseCatalogFilter({ include_brand_ids: ["0"] })).toThrow()
    expect(() => parseCatalogFilter({ cost_min: "-1" })).toThrow()
    expect(() => parseCatalogFilter({ cost_min: "500", cost_max: "100" })).toThrow()
    expect(parseCatalogFilter({ cost_min: "99.90", cost_max: 100 }).cost_max).toBe("100")
  })
})

describe("cardMatchesFilter", () => {
  it("keeps a card inside an included subtree and drops one outside it", () => {
    const f = parseCatalogFilter({ include_category_ids: ["1"] })
    expect(cardMatchesFilter(card({ category_id: "3" }), f, tree)).toBe(true)
    expect(cardMatchesFilter(card({ category_id: "1" }), f, tree)).toBe(true)
    expect(cardMatchesFilter(card({ category_id: "10" }), f, tree)).toBe(false)
    expect(cardMatchesFilter(card({ category_id: null }), f, tree)).toBe(false)
  })

  it("lets an excluded subtree win inside an included one", () => {
    const f = parseCatalogFilter({ include_category_ids: ["1"], exclude_category_ids: ["2"] })
    expect(cardMatchesFilter(card({ category_id: "3" }), f, tree)).toBe(false)
    expect(cardMatchesFilter(card({ category_id: "4" }), f, tree)).toBe(true)
  })

  it("does not loop on a category cycle", () => {
    const f = parseCatalogFilter({ include_category_ids: ["1"] })
    expect(cardMatchesFilter(card({ category_id: "20" }), f, tree)).toBe(false)
    expect(subtreeIds(["20"], tree)).toEqual(["20", "21"])
  })

  it("filters by brand, stock, new arrivals", () => {
    expect(cardMatchesFilter(card(), parseCatalogFilter({ include_brand_ids: ["8"] }), tree)).toBe(false)
    expect(cardMatchesFilter(card(), parseCatalogFilter({ include_brand_ids: ["7"] }), tree)).toBe(true)
    expect(cardMatchesFilter(card(), parseCatalogFilter({ exclude_brand_ids: ["7"] }), tree)).toBe(false)
    expect(cardMatchesFilter(card({ brand: null }), parseCatalogFilter({ include_brand_ids: ["7"] }), tree)).toBe(false)
    expect(cardMatchesFilter(card({ in_stock: false }), parseCatalogFilter({ in_stock_only: true }), tree)).toBe(false)
    expect(cardMatchesFilter(card({ is_new: null }), parseCatalogFilter({ new_only: true }), tree)).toBe(false)
    expect(cardMatchesFilter(card({ is_new: true }), parseCatalogFilter({ new_only: true }), tree)).toBe(true)
  })

  it("compares cost exactly and inclusively, and drops a card without cost when a band is set", () => {
    const f = parseCatalogFilter({ cost_min: "100.10", cost_max: "200" })
    expect(cardMatchesFilter(card({ cost_price: "100.10" }), f, tree)).toBe(true)
    expect(cardMatchesFilter(card({ cost_price: "100.09" }), f, tree)).toBe(false)
    expect(cardMatchesFilter(card({ cost_price: "200.00" }), f, tree)).toBe(true)
    expect(cardMatchesFilter(card({ cost_price: "200.000001" }), f, tree)).toBe(false)
    expect(cardMatchesFilter(card({ cost_price: null }), f, tree)).toBe(false)
    expect(cardMatchesFilter(card({ cost_price: null }), parseCatalogFilter({}), tree)).toBe(true)
  })
})
