import { DEFAULT_PRICING_RULES, type PricingRules, priceOf } from "../../../../pricing"
import { previewRules, type PreviewVariant } from "../pricing/preview/preview-plan"

function variant(n: number, size: string, cost: string | null, amount: string | null, category = "10"): PreviewVariant {
  return {
    variant_id: `variant_${n}_${size}`,
    catalog_id: String(n),
    size,
    title: `Product ${n}`,
    product_id: `prod_${n}`,
    cost,
    context: { categoryPath: ["1", category], brandId: null },
    current: { amount, crossed_out: null },
  }
}

const base30: PricingRules = { ...DEFAULT_PRICING_RULES, base_markup_percent: "30" }

describe("previewRules", () => {
  // 40 products, 3 sizes each, priced now at cost + 30 %; products 30..39 are in category 20.
  const variants: PreviewVariant[] = []
  for (let n = 1; n <= 40; n++) {
    for (const [i, size] of ["L", "M", "S"].entries()) {
      const cost = `${100 + n}.${i}5`
      variants.push(variant(n, size, cost, priceOf(cost, { categoryPath: [], brandId: null }, base30).amount, n >= 30 ? "20" : "10"))
    }
  }

  it("moves nothing when the rules are the ones the prices came from", () => {
    const { summary, sample } = previewRules(variants, base30)
    expect(summary).toMatchObject({ variants: 120, priced: 120, changed: 0, moved: 0 })
    expect(sample).toHaveLength(10)
    expect(new Set(sample.map((r) => r.catalog_id)).size).toBe(10)
    // The middle size of each product, unchanged price.
    for (const row of sample) {
      expect(row.size).toBe("M")
      expect(row.next.amount).toBe(row.current.amount)
    }
  })

  it("counts the moves of a category override exactly and samples a product it decides", () => {
    const rules: PricingRules = { ...base30, overrides: [{ type: "category", category_id: "20", markup_percent: "50" }] }
    const { summary, sample } = previewRules(variants, rules)
    // Products 30..40 (11 products × 3 sizes) move up; none down.
    expect(summary).toMatchObject({ moved: 33, up: 33, down: 0 })
    const hit = sample.filter((r) => r.rule.type === "category")
    expect(hit.length).toBeGreaterThanOrEqual(1)
    for (const row of hit) expect(row.next.amount).toBe(priceOf(row.cost, { categoryPath: ["1", "20"], brandId: null }, rules).amount)
    // Same sample size, sorted by catalog id, each product once.
    expect(sample).toHaveLength(10)
    const ids = sample.map((r) => Number(r.catalog_id))
    expect([...ids].sort((a, b) => a - b)).toEqual(ids)
    expect(new Set(ids).size).toBe(10)
  })

  it("shows a product whose prices are locked as kept, and counts its sizes as held, not moved", () => {
    const locked = variants.map((v) => (v.catalog_id === "1" ? { ...v, prices_locked: true } : v))
    const { summary, sample } = previewRules(locked, { ...base30, base_markup_percent: "40" })
    expect(summary).toMatchObject({ priced: 120, moved: 117, up: 117, held_by_lock: 3 })
    const row = sample.find((r) => r.catalog_id === "1")!
    expect(row).toMatchObject({ prices_locked: true, next: { amount: row.current.amount } })
    expect(sample.filter((r) => r.catalog_id !== "1").every((r) => !r.prices_locked && r.next.amount !== r.current.amount)).toBe(true)
  })

  it("leaves sizes without a cost out of the sample and the moves", () => {
    const withoutCost = [variant(99, "", null, "10.00"), ...variants.slice(0, 3)]
    const { summary, sample } = previewRules(withoutCost, { ...base30, base_markup_percent: "40" })
    expect(summary).toMatchObject({ variants: 4, priced: 3, moved: 3 })
    expect(sample.map((r) => r.catalog_id)).toEqual(["1"])
  })
})
