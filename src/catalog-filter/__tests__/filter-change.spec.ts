import { buildCategoryTree } from "../category-tree"
import { KEEP_EVERYTHING, parseCatalogFilter, type FilterableCard } from "../filter"
import { countKept } from "../kept-count"
import { appliedFilterOf, planFilterChange } from "../filter-change"
import { filterPageItems } from "../../sync-run/filter-pages"
import type { ChangeItem } from "../../catalog-client/items"

// 1 Shoes ─ 2 Sneakers;  10 Bags
const tree = buildCategoryTree([
  { id: "1", parent_id: null },
  { id: "2", parent_id: "1" },
  { id: "10", parent_id: null },
])
const card = (category_id: string, brand: string): FilterableCard => ({ category_id, brand: { id: brand }, in_stock: true, cost_price: "10", is_new: false })

describe("planFilterChange", () => {
  const shoesOfBrand7 = parseCatalogFilter({ include_category_ids: ["1"], include_brand_ids: ["7"] })
  const shoesOfBrands7and8 = parseCatalogFilter({ include_category_ids: ["1"], include_brand_ids: ["7", "8"] })

  it("an unchanged filter needs nothing", () => {
    expect(planFilterChange(shoesOfBrand7, parseCatalogFilter({ include_brand_ids: ["7"], include_category_ids: ["1"] }), tree)).toBeNull()
  })

  it("widening lists only the added brand within the kept categories, writes only new cards and removes nothing", () => {
    const change = planFilterChange(shoesOfBrand7, shoesOfBrands7and8, tree)!
    expect(change.narrowed).toBe(false)
    expect(change.queries).toEqual([
      { category_id: "1", brand_id: "8" },
      { category_id: "2", brand_id: "8" },
    ])
    expect(change.writes(card("2", "8"))).toBe(true)
    expect(change.writes(card("2", "7"))).toBe(false)
    expect(change.writes(card("10", "8"))).toBe(false)
  })

  it("narrowing lists what the new filter keeps, and keeps only that", () => {
    const change = planFilterChange(shoesOfBrands7and8, shoesOfBrand7, tree)!
    expect(change.narrowed).toBe(true)
    expect(change.queries).not.toContainEqual({})
    expect(change.keeps(card("2", "7"))).toBe(true)
    expect(change.keeps(card("2", "8"))).toBe(false)
    expect(change.writes(card("2", "7"))).toBe(false)
  })

  it("a filter set on a shop that held everything is a narrowing", () => {
    expect(planFilterChange(appliedFilterOf(null), shoesOfBrand7, tree)?.narrowed).toBe(true)
    expect(appliedFilterOf({ include_brand_ids: ["x"] })).toEqual(KEEP_EVERYTHING)
  })
})

describe("filterPageItems", () => {
  it("turns cards outside the filter into removals and leaves the rest", () => {
    const filter = parseCatalogFilter({ include_category_ids: ["1"] })
    const product = (id: string, category_id: string) => ({ id, category_id, brand: null, in_stock: true, cost_price: "1" }) as never
    const items: ChangeItem[] = [
      { status: "updated", id: "5", product: product("5", "2") },
      { status: "created", id: "6", product: product("6", "10") },
      { status: "removed", id: "7" },
    ]
    expect(filterPageItems(items, filter, tree)).toEqual([items[0], { status: "removed", id: "6" }, items[2]])
    expect(filterPageItems(items, KEEP_EVERYTHING, tree)).toBe(items)
  })
})

describe("countKept", () => {
  it("counts products (not sizes) the filter keeps, the band on the lowest size cost, and names what it cannot count", () => {
    const rows = [
      { catalog_id: "5", category_id: "2", brand_id: "7", cost: "30" },
      { catalog_id: "5", category_id: "2", brand_id: "7", cost: "8" },
      { catalog_id: "6", category_id: "10", brand_id: "7", cost: "5" },
      { catalog_id: "9", category_id: "1", brand_id: "8", cost: null },
    ]
    expect(countKept(rows, parseCatalogFilter({ include_category_ids: ["1"], cost_max: "10" }), tree)).toEqual({ kept: 1, total: 3, not_counted: [] })
    expect(countKept(rows, parseCatalogFilter({ include_category_ids: ["1"], in_stock_only: true }), tree)).toEqual({
      kept: 2,
      total: 3,
      not_counted: ["in_stock_only"],
    })
  })
})
