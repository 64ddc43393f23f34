import { DEFAULT_PRICING_RULES, type PricingRules, type StoredVariantPrice, decideBrake, planReprice, pricesHeldByLock } from "../index"

const rules = (patch: Partial<PricingRules>): PricingRules => ({ ...DEFAULT_PRICING_RULES, ...patch })

function variant(id: string, cost: string | null, amount: string | null, crossed: string | null = null, categoryPath: string[] = []): StoredVariantPrice {
  return { variant_id: id, catalog_id: `c${id}`, size: "M", cost, context: { categoryPath, brandId: null }, current: { amount, crossed_out: crossed } }
}

describe("planReprice", () => {
  it("leaves sizes held by a prices lock out of the changes and the moves, and counts them (issue 43: product 4's 3 locked sizes)", () => {
    const locked = (id: string, cost: string, amount: string): StoredVariantPrice => ({ ...variant(id, cost, amount), catalog_id: "c4", prices_locked: true })
    // Today: +35 % everywhere, but product 4's sizes are locked at 2,418.15.
    const stored = [
      variant("1", "100", "135.00"),
      variant("2", "200", "270.00"),
      locked("4a", "1612.10", "2418.15"),
      locked("4b", "1612.10", "2418.15"),
      locked("4c", "1612.10", "2418.15"),
    ]
    // The saved rules unchanged: nothing moves (the locked sizes would, were they not locked).
    const same = planReprice(stored, rules({ base_markup_percent: "35" }))
    expect(same.changes).toEqual([])
    expect(same.summary).toMatchObject({ priced: 5, changed: 0, moved: 0, up: 0, held_by_lock: 3, largest_change_percent: null })
    // +60 %: the two unlocked sizes move, the locked ones stay.
    const more = planReprice(stored, rules({ base_markup_percent: "60" }))
    expect(more.changes.map((c) => c.variant_id)).toEqual(["1", "2"])
    expect(more.summary).toMatchObject({ priced: 5, changed: 2, moved: 2, up: 2, held_by_lock: 3 })
    // The rule itself, shared by the reprice run, its preview and the price guards.
    expect(pricesHeldByLock(stored[2])).toBe(true)
    expect(pricesHeldByLock(stored[0])).toBe(false)
  })

  it("lists only the prices that change, with an exact summary", () => {
    const next = rules({ base_markup_percent: "30", overrides: [{ type: "category", category_id: "5", markup_percent: "10" }] })
    const plan = planReprice(
      [
        variant("1", "100", "130.00"), // unchanged ("130" = "130.00")
        variant("2", "100", "130"), // unchanged, other text
        variant("3", "200", "200.00"), // +30 %
        variant("4", "100", "150.00", null, ["5"]), // 150 → 110: −26.67 %
        variant("5", "1000", "1000.00"), // +30 %
        variant("6", "10", "12.00"), // 12 → 13: +8.33 %
        variant("7", null, "99.00"), // no cost: left alone
        variant("8", "100", "130.00", "150.00"), // crossed-out price goes away
        variant("9", "100", null), // no current price: a move up without a percent
      ],
      next
    )
    expect(plan.changes.map((c) => c.variant_id)).toEqual(["3", "4", "5", "6", "8", "9"])
    expect(plan.changes[1]).toEqual({
      variant_id: "4",
      catalog_id: "c4",
      size: "M",
      cost: "100",
      from: { amount: "150.00", crossed_out: null },
      to: { amount: "110.00", crossed_out: null },
      rule: { type: "category", index: 0, category_id: "5", markup_percent: "10", depth: 0, inherited: false },
      change_percent: "-26.67",
    })
    expect(plan.changes[4]).toMatchObject({ variant_id: "8", to: { amount: "130.00", crossed_out: null }, change_percent: null })
    expect(plan.summary).toEqual({
      variants: 9,
      priced: 8,
      changed: 6,
      moved: 5,
      up: 4,
      down: 1,
      crossed_out_only: 1,
      held_by_lock: 0,
      largest_change_percent: "30.00",
      // moves with a percent: 30, −26.666…, 30, 8.333… → sorted −26.67, 8.33, 30, 30 → (8.333… + 30) / 2
      median_change_percent: "19.17",
    })
  })

  it("the largest move is the one furthest from zero, signed", () => {
    const plan = planReprice([variant("1", "100", "300.00"), variant("2", "100", "90.00")], rules({ base_markup_percent: "0" }))
    expect(plan.summary).toMatchObject({ moved: 2, up: 1, down: 1, largest_change_percent: "-66.67", median_change_percent: "-27.78" })
  })

  it("nothing to do gives an empty plan", () => {
    const plan = planReprice([variant("1", "100", "100.00")], rules({}))
    expect(plan).toEqual({
      changes: [],
      summary: {
        variants: 1,
        priced: 1,
        changed: 0,
        moved: 0,
        up: 0,
        down: 0,
        crossed_out_only: 0,
        held_by_lock: 0,
        largest_change_percent: null,
        median_change_percent: null,
      },
    })
  })
})

describe("decideBrake", () => {
  const removals = (n: number) => Array.from({ length: n }, (_, i) => ({ catalog_id: String(i + 1) }))
  const drops = (n: number, from: string, to: string) => Array.from({ length: n }, (_, i) => ({ variant_id: `v${i}`, from, to }))

  it("removals: exactly 20 % goes on, one more pauses", () => {
    const at = decideBrake({ shopCatalogProducts: 1000, shopPrices: 5000, removals: removals(200), priceChanges: [] })
    expect(at.pause).toBe(false)
    expect(at.preview.removals).toMatchObject({ count: 200, share_percent: "20.00" })
    const over = decideBrake({ shopCatalogProducts: 1000, shopPrices: 5000, removals: removals(201), priceChanges: [], previewSize: 3 })
    expect(over.pause).toBe(true)
    expect(over.reasons).toEqual([{ code: "removals", message: "would remove 201 of 1,000 catalog products (20.1 %, more than 20 %)" }])
    // A share just over the limit keeps the decimals that show it is over; a round one shows none.
    const barely = decideBrake({ shopCatalogProducts: 10000, shopPrices: 5000, removals: removals(2001), priceChanges: [] })
    expect(barely.reasons[0].message).toBe("would remove 2,001 of 10,000 catalog products (20.01 %, more than 20 %)")
    const quarter = decideBrake({ shopCatalogProducts: 1000, shopPrices: 5000, removals: removals(250), priceChanges: [] })
    expect(quarter.reasons[0].message).toBe("would remove 250 of 1,000 catalog products (25 %, more than 20 %)")
    expect(over.preview.removals.sample).toEqual([{ catalog_id: "1" }, { catalog_id: "2" }, { catalog_id: "3" }])
  })

  it("a share under its limit, shown beside a pause for the other reason, reads with one decimal", () => {
    // 1 removal of 7 products (14.28… %, under 20 %) beside 3 steep drops of 7 prices: the panel
    // printed all 60 digits of the removals' share.
    const paused = decideBrake({ shopCatalogProducts: 7, shopPrices: 7, removals: removals(1), priceChanges: drops(3, "100", "10") })
    expect(paused.reasons.map((r) => r.code)).toEqual(["price_drops"])
    expect(paused.preview.removals.share_text).toBe("14.2")
    expect(paused.preview.steep_drops.share_text).toBe("42.8")
    // Over the limit by less than 0.0001: rounded up, so it still reads as over.
    const hair = decideBrake({ shopCatalogProducts: 7_000_001, shopPrices: 5, removals: [], removalCount: 1_400_001, priceChanges: [] })
    expect(hair.reasons[0].message).toBe("would remove 1,400,001 of 7,000,001 catalog products (20.000012 %, more than 20 %)")
  })

  it("price drops: a drop of exactly 30 % does not count; exactly 10 % of prices goes on", () => {
    // 100 → 70 is exactly −30 %: not "more than 30 %".
    const exactDrop = decideBrake({ shopCatalogProducts: 10, shopPrices: 100, removals: [], priceChanges: drops(50, "100", "70") })
    expect(exactDrop.pause).toBe(false)
    expect(exactDrop.preview.steep_drops.count).toBe(0)
    // 100 → 69.99 is more than 30 %: 10 of 100 prices is exactly 10 %, goes on; 11 pauses.
    expect(decideBrake({ shopCatalogProducts: 10, shopPrices: 100, removals: [], priceChanges: drops(10, "100", "69.99") }).pause).toBe(false)
    const over = decideBrake({
      shopCatalogProducts: 10,
      shopPrices: 100,
      removals: [],
      priceChanges: [...drops(11, "100", "69.99"), { variant_id: "x", from: "1000", to: "100" }, { variant_id: "up", from: "1", to: "5" }],
    })
    expect(over.pause).toBe(true)
    expect(over.reasons).toEqual([{ code: "price_drops", message: "would lower 12 of 100 prices by more than 30 % (12 %, more than 10 %)" }])
    // Steepest first.
    expect(over.preview.steep_drops.sample[0]).toEqual({ variant_id: "x", from: "1000", to: "100", drop_percent: "90.00", drop_text: "90" })
    expect(over.preview.steep_drops.sample[1].drop_percent).toBe("30.01")
  })

  it("both reasons at once, thresholds configurable", () => {
    const decision = decideBrake({
      shopCatalogProducts: 100,
      shopPrices: 100,
      removals: removals(6),
      priceChanges: drops(6, "10", "9"),
      thresholds: { removal_percent: "5", lowered_prices_percent: "5", price_drop_percent: "5" },
    })
    expect(decision.reasons.map((r) => r.code)).toEqual(["removals", "price_drops"])
    expect(decision.preview.thresholds).toEqual({ removal_percent: "5", lowered_prices_percent: "5", price_drop_percent: "5" })
  })

  it("an empty shop (first sync) never pauses", () => {
    const decision = decideBrake({ shopCatalogProducts: 0, shopPrices: 0, removals: removals(3), priceChanges: drops(3, "10", "1") })
    expect(decision.pause).toBe(false)
    expect(decision.preview.removals.share_percent).toBeNull()
  })
})
