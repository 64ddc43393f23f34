import { buildCategoryTree } from "../category-tree"
import { cardMatchesFilter, parseCatalogFilter, type FilterableCard } from "../filter"
import { SHOE_AND_BAG_CATEGORIES } from "./category-fixture"
import { filterQueries, isNewlyExcluded, isNewlyIncluded, widenedPart, type ProductQuery } from "../queries"

const tree = buildCategoryTree([...SHOE_AND_BAG_CATEGORIES, { id: "11", parent_id: "10" }])

// A small catalog to check the listings against: every combination of the filtered fields.
const catalog: FilterableCard[] = []
for (const category_id of ["1", "2", "3", "4", "10", "11", null])
  for (const brand of [{ id: "7" }, { id: "8" }, null])
    for (const in_stock of [true, false])
      for (const is_new of [true, false, null]) for (const cost_price of ["50", "150", null]) catalog.push({ category_id, brand, in_stock, is_new, cost_price })

/** What a listing returns, with the API's subtree semantics for category_id. */
function listing(q: ProductQuery): FilterableCard[] {
  return catalog.filter(
    (c) =>
      cardMatchesFilter(
        c,
        parseCatalogFilter({
          include_category_ids: q.category_id ? [q.category_id] : [],
          include_brand_ids: q.brand_id ? [q.brand_id] : [],
          in_stock_only: q.in_stock === true,
          new_only: q.is_new === true,
        }),
        tree
      ) &&
      (q.in_stock !== false || !c.in_stock)
  )
}
const union = (qs: ProductQuery[]) => new Set(qs.flatMap(listing))

describe("filterQueries", () => {
  it("is one unfiltered listing for the whole catalog", () => {
    expect(filterQueries(parseCatalogFilter({}), tree)).toEqual([{}])
  })

  it("lists each subtree once, crossed with brands and the flags the API has", () => {
    const f = parseCatalogFilter({ include_category_ids: ["1", "3", "10"], include_brand_ids: ["8"], in_stock_only: true, new_only: true })
    expect(filterQueries(f, tree)).toEqual([
      { category_id: "1", brand_id: "8", in_stock: true, is_new: true },
      { category_id: "10", brand_id: "8", in_stock: true, is_new: true },
    ])
  })

  it("expands subtrees when the API's category filter is exact", () => {
    const f = parseCatalogFilter({ include_category_ids: ["10"] })
    expect(filterQueries(f, tree, { categoryFilterCoversSubtree: false })).toEqual([{ category_id: "10" }, { category_id: "11" }])
  })

  it("sends only the smaller dimension when the product is too large", () => {
    const f = parseCatalogFilter({ include_category_ids: ["1", "10"], include_brand_ids: ["7", "8", "9"] })
    expect(filterQueries(f, tree, { maxQueries: 4 })).toEqual([{ category_id: "1" }, { category_id: "10" }])
  })

  it("never misses a card the filter keeps", () => {
    const f = parseCatalogFilter({ include_category_ids: ["2"], exclude_category_ids: ["3"], include_brand_ids: ["7"], cost_max: "100" })
    const got = union(filterQueries(f, tree))
    for (const c of catalog) if (cardMatchesFilter(c, f, tree)) expect(got.has(c)).toBe(true)
  })
})

describe("widenedPart", () => {
  const cases: Array<[string, object, object]> = [
    ["a category added", { include_category_ids: ["2"] }, { include_category_ids: ["2", "10"] }],
    ["a brand added", { include_brand_ids: ["7"] }, { include_brand_ids: ["7", "8"] }],
    ["an exclusion lifted", { exclude_category_ids: ["3"], include_brand_ids: ["7"] }, { include_brand_ids: ["7"] }],
    ["a brand exclusion lifted", { exclude_brand_ids: ["8"] }, {}],
    ["in-stock-only dropped", { in_stock_only: true, include_category_ids: ["10"] }, { include_category_ids: ["10"] }],
    ["new-only dropped", { new_only: true }, {}],
    ["the band widened", { cost_max: "100" }, { cost_max: "200" }],
    ["two parts at once", { include_category_ids: ["2"], in_stock_only: true }, { include_category_ids: ["2", "4"] }],
    ["categories opened to all", { include_category_ids: ["2"] }, {}],
  ]
  it.each(cases)("covers every newly included card: %s", (_name, oldInput, newInput) => {
    const oldF = parseCatalogFilter(oldInput)
    const newF = parseCatalogFilter(newInput)
    const part = widenedPart(oldF, newF, tree)
    expect(part).not.toBeNull()
    const got = union(part!.queries)
    const newly = catalog.filter((c) => isNewlyIncluded(c, oldF, newF, tree))
    expect(newly.length).toBeGreaterThan(0)
    for (const c of newly) expect(got.has(c)).toBe(true)
  })

  it("narrows the listings to the part that widened", () => {
    const oldF = parseCatalogFilter({ include_category_ids: ["2"], include_brand_ids: ["7"] })
    expect(widenedPart(oldF, parseCatalogFilter({ include_category_ids: ["2", "10"], include_brand_ids: ["7"] }), tree)).toEqual({
      queries: [{ category_id: "10", brand_id: "7" }],
      widened: ["categories"],
    })
    expect(widenedPart(parseCatalogFilter({ in_stock_only: true }), parseCatalogFilter({}), tree)!.queries).toEqual([{ in_stock: false }])
  })

  it("is null when the new filter is narrower or the same", () => {
    const oldF = parseCatalogFilter({ include_category_ids: ["1"], include_brand_ids: ["7", "8"] })
    expect(widenedPart(oldF, oldF, tree)).toBeNull()
    expect(widenedPart(oldF, parseCatalogFilter({ include_category_ids: ["2"], include_brand_ids: ["7"], in_stock_only: true }), tree)).toBeNull()
    expect(widenedPart(parseCatalogFilter({}), parseCatalogFilter({ exclude_category_ids: ["3"], cost_min: "1" }), tree)).toBeNull()
  })

  it("tells the cards a narrower filter drops", () => {
    const oldF = parseCatalogFilter({ include_category_ids: ["1"] })
    const newF = parseCatalogFilter({ include_category_ids: ["1"], exclude_category_ids: ["3"] })
    const dropped = catalog.filter((c) => isNewlyExcluded(c, oldF, newF, tree))
    expect(dropped.length).toBeGreaterThan(0)
    expect(dropped.every((c) => c.category_id === "3")).toBe(true)
  })
})
