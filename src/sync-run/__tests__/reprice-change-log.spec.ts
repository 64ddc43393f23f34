// A reprice run's change log rows (pure): one row per product whose prices the batch writes.
import type { PriceChange } from "../../pricing/reprice"
import { repriceChangeRows } from "../reprice-change-log"

const change = (catalog_id: string, variant_id: string, from: string, to: string): PriceChange =>
  ({
    variant_id,
    catalog_id,
    size: variant_id,
    cost: "1",
    from: { amount: from, crossed_out: null },
    to: { amount: to, crossed_out: null },
    rule: {},
    change_percent: null,
  }) as unknown as PriceChange

describe("repriceChangeRows", () => {
  it("logs each repriced product once with its lowest selling price before and after, exact", () => {
    const sizes = [
      { catalog_id: "1", variant_id: "v1", amount: "100.10" },
      { catalog_id: "1", variant_id: "v2", amount: "90.20" },
      { catalog_id: "2", variant_id: "v3", amount: "50.00" },
      { catalog_id: "3", variant_id: "v4", amount: "70.00" },
    ]
    const rows = repriceChangeRows(
      [change("1", "v2", "90.20", "120.30"), change("2", "v3", "50.00", "45.05")],
      sizes,
      new Map([["1", { product_id: "prod_1", title: "Boots" }]])
    )
    expect(rows).toEqual([
      expect.objectContaining({
        kind: "updated",
        catalog_id: "1",
        product_id: "prod_1",
        title: "Boots",
        price_changed: true,
        price_before: "90.20",
        price_after: "100.10",
      }),
      expect.objectContaining({
        kind: "updated",
        catalog_id: "2",
        product_id: null,
        title: null,
        price_changed: true,
        price_before: "50.00",
        price_after: "45.05",
      }),
    ])
    expect(repriceChangeRows([], sizes, new Map())).toEqual([])
  })
})
