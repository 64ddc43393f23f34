// The price guards trip on what the issue saw: a −20 % brand rule selling under cost, a 99.99 %
// discount, and a change that moves most prices; a small change within the caps trips nothing.
import { DEFAULT_PRICING_RULES, planReprice, type PricingRules, type StoredVariantPrice } from ".."
import { priceGuardsOf } from "../price-guards"

const variant = (id: string, cost: string, amount: string, brandId: string | null = null): StoredVariantPrice => ({
  variant_id: id,
  cost,
  context: { categoryPath: [], brandId },
  current: { amount, crossed_out: null },
})

// Today: 30 % over cost everywhere.
const shop = [
  variant("v1", "580.88", "755.14", "b1"),
  variant("v2", "100.00", "130.00", "b2"),
  variant("v3", "200.00", "260.00", "b2"),
  variant("v4", "50.00", "65.00", "b2"),
]
const rules = (over: Partial<PricingRules>): PricingRules => ({ ...DEFAULT_PRICING_RULES, base_markup_percent: "30", ...over })
const guards = (r: PricingRules) => priceGuardsOf(r, shop, planReprice(shop, r).summary)

describe("price guards", () => {
  it("sizes held by a prices lock are not judged: not moves, not below cost (issue 43: 800 of 800 with 3 locked)", () => {
    const lockedShop: StoredVariantPrice[] = [
      ...shop,
      ...["a", "b", "c"].map((s) => ({ ...variant(`v5${s}`, "1612.10", "2418.15"), catalog_id: "4", prices_locked: true })),
    ]
    // The saved +30 %: only the locked sizes differ, and they are kept: nothing to confirm.
    expect(priceGuardsOf(rules({}), lockedShop, planReprice(lockedShop, rules({})).summary)).toEqual([])
    // +60 %: 4 of 7 move (the locked 3 do not), which is over half: asked, with the true count.
    const up = rules({ base_markup_percent: "60" })
    expect(priceGuardsOf(up, lockedShop, planReprice(lockedShop, up).summary)).toEqual([
      { code: "moves_many_prices", count: 4, message: "4 of 7 selling prices would change (over 50 % asks first)" },
    ])
    // A markdown under cost: the locked sizes keep their price over cost, so only the 4 unlocked count.
    const under = rules({ base_markup_percent: "-10" })
    expect(priceGuardsOf(under, lockedShop, planReprice(lockedShop, under).summary)[0]).toMatchObject({ code: "below_cost", count: 4 })
  })

  it("a brand rule of −20 % sells below cost: named, with the sizes counted", () => {
    const found = guards(rules({ overrides: [{ type: "brand", brand_id: "b1", markup_percent: "-20" }] }))
    expect(found).toEqual([{ code: "below_cost", count: 1, message: "1 size would sell below cost (override 1 (brand) -20 %)" }])
  })
  it("a 99.99 % discount is over the cap", () => {
    expect(guards(rules({ crossed_out: { type: "discount", discount_percent: "99.99" } })).map((g) => g.code)).toEqual(["discount_over_cap"])
  })
  it("a change that moves more than half of the prices asks first", () => {
    expect(guards(rules({ base_markup_percent: "35" }))).toEqual([
      { code: "moves_many_prices", count: 4, message: "4 of 4 selling prices would change (over 50 % asks first)" },
    ])
    // Counts read as everywhere else in the admin: grouped.
    const many = Array.from({ length: 1200 }, (_, i) => variant(`m${i}`, "100.00", "130.00"))
    const r = rules({ base_markup_percent: "35" })
    expect(priceGuardsOf(r, many, planReprice(many, r).summary).map((g) => g.message)).toEqual([
      "1,200 of 1,200 selling prices would change (over 50 % asks first)",
    ])
  })
  it("a change within the caps trips nothing", () => {
    expect(
      guards(rules({ overrides: [{ type: "brand", brand_id: "b1", markup_percent: "40" }], crossed_out: { type: "discount", discount_percent: "20" } }))
    ).toEqual([])
  })
})
