import { decideBrake } from "../../../pricing/brake"
import { brakeDropText, brakeDropsLine, brakeHeadline, brakeRemovalsLine, pausedPhase, pausedPhaseText, pausedRunOf } from "../brake"
import type { Run, SyncStatus } from "../types"

const decision = decideBrake({
  shopCatalogProducts: 10,
  shopPrices: 10,
  removals: [
    { catalog_id: "1", title: "A" },
    { catalog_id: "2", title: "B" },
    { catalog_id: "3", title: "C" },
  ],
  priceChanges: [],
})
const run = {
  id: "csrun_1",
  mode: "changes",
  status: "paused",
  trigger: "schedule",
  brake: { reasons: decision.reasons, preview: decision.preview },
} as unknown as Run
const status = (patch: Partial<SyncStatus>) => ({ state: "idle", running_run: null, last_run: null, ...patch }) as SyncStatus

describe("the brake in the admin", () => {
  it("finds the paused run wherever the status carries it, and nothing when none is paused", () => {
    expect(pausedRunOf(status({ running_run: run }))?.run.id).toBe("csrun_1")
    expect(pausedRunOf(status({ last_run: run }))?.preview?.removals.count).toBe(3)
    expect(pausedRunOf({ ...status({}), paused_run: run } as SyncStatus)?.reasons).toHaveLength(1)
    const { brake, ...bare } = run as Run & { brake: unknown }
    expect(
      pausedRunOf({ ...status({ state: "paused" }), paused: { run_id: run.id, run: bare, brake } } as unknown as SyncStatus)?.preview?.removals.count
    ).toBe(3)
    expect(pausedRunOf(status({ last_run: { ...run, status: "succeeded" } }))).toBeNull()
  })

  it("says why in the brake's own words", () => {
    expect(brakeHeadline(pausedRunOf(status({ last_run: run }))!)).toBe(
      "The safety brake paused this run: it would remove 3 of 10 catalog products (30 %, more than 20 %). None of these products has been removed."
    )
  })

  it("names a paused run's phase by its answer once answered, with the run that carried it out", () => {
    expect(pausedPhase(run)).toEqual({ text: "Paused by the safety brake: waiting for your answer", continued_by: null })
    const answered = (action: string, extra: object) => ({ ...run, brake_resolution: { action, at: "2026-12-06T10:00:00Z", ...extra } }) as Run
    expect(pausedPhase(answered("confirmed", { removals: 3, continued_by: "csrun_2" }))).toEqual({ text: "Removals confirmed", continued_by: "csrun_2" })
    expect(pausedPhase(answered("discarded", { removals: 3 }))).toEqual({ text: "Removals discarded", continued_by: null })
    expect(pausedPhase(answered("confirmed", { removals: 0, price_drops: 2 }))?.text).toBe("Price drops confirmed")
    expect(pausedPhase({ ...run, status: "succeeded" } as Run)).toBeNull()
    // The run that carried it out is named in words (a link on the run page), never by its id.
    const line = pausedPhaseText(pausedPhase(answered("discarded", { removals: 3, continued_by: "csrun_01M976VP3MG696QGGKTDY7RSWQ" }))!)
    expect(line).toBe("Removals discarded, continued by the next run")
    expect(line).not.toMatch(/csrun_/)
  })
})

describe("the brake panel writes each percent once, in the reason's own format", () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => ({ catalog_id: String(i + 1) }))
  it('says "23.3 %" in the reason and on the line below it, never "23.33 %" (7 of 30), and "26 %", never "26.09 %" (6 of 23)', () => {
    for (const [removed, shop, text] of [
      [7, 30, "23.3"],
      [6, 23, "26"],
    ] as const) {
      const d = decideBrake({ shopCatalogProducts: shop, shopPrices: shop, removals: ids(removed), priceChanges: [] })
      expect(d.reasons[0].message).toContain(`(${text} %, more than 20 %)`)
      expect(d.preview.removals.share_percent).toBe(((removed / shop) * 100).toFixed(2))
      expect(brakeRemovalsLine(d.preview)).toBe(`Would remove ${removed} products (${text} % of the shop's catalog products)`)
      // A preview stored before share_text: its 2-decimal share is written the same way.
      const stored = { ...d.preview, removals: { ...d.preview.removals, share_text: undefined } }
      expect(brakeRemovalsLine(stored)).toBe(`Would remove ${removed} products (${text} % of the shop's catalog products)`)
    }
  })

  it("writes the price drops' share and each drop as the reason does", () => {
    const priceChanges = [
      { variant_id: "a", from: "100", to: "10" },
      { variant_id: "b", from: "300", to: "209.97" },
      { variant_id: "c", from: "100", to: "100" },
    ]
    const d = decideBrake({ shopCatalogProducts: 0, shopPrices: 3, removals: [], priceChanges })
    expect(d.reasons[0].message).toContain("(66.6 %, more than 10 %)")
    expect(brakeDropsLine(d.preview)).toBe("Would lower 2 prices by more than 30 % (66.6 % of the shop's prices)")
    expect(d.preview.steep_drops.sample.map((s) => brakeDropText(s, d.preview))).toEqual(["−90 %", "−30.01 %"])
  })
})

describe("the brake panel says what its percent is of (issue 43, review of the admin)", () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => ({ catalog_id: String(i + 1) }))
  it("names the base the server computed and the kept products it does not count", () => {
    const d = decideBrake({
      shopCatalogProducts: 300,
      notCounted: { kept_by_discard: 5, kept_for_orders: 2 },
      shopPrices: 0,
      removals: ids(70),
      priceChanges: [],
    })
    expect(brakeRemovalsLine(d.preview)).toBe(
      "Would remove 70 products (23.3 % of the 300 products the shop held from the catalog when the run started, not counting 5 kept by your discard and 2 kept for open orders)"
    )
    const onlyOrders = decideBrake({
      shopCatalogProducts: 10,
      notCounted: { kept_by_discard: 0, kept_for_orders: 1 },
      shopPrices: 0,
      removals: ids(3),
      priceChanges: [],
    })
    expect(brakeRemovalsLine(onlyOrders.preview)).toBe(
      "Would remove 3 products (30 % of the 10 products the shop held from the catalog when the run started, not counting 1 kept for open orders)"
    )
    const none = decideBrake({
      shopCatalogProducts: 10,
      notCounted: { kept_by_discard: 0, kept_for_orders: 0 },
      shopPrices: 0,
      removals: ids(3),
      priceChanges: [],
    })
    expect(brakeRemovalsLine(none.preview)).toBe("Would remove 3 products (30 % of the 10 products the shop held from the catalog when the run started)")
  })
})
