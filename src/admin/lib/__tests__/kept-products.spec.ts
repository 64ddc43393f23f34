import { keptCountsText, keptLine } from "../kept-products"
import { formatCount } from "../format"

describe("kept products in words", () => {
  const when = (iso: string) => iso.slice(0, 10)
  it("says since when and why, for a discard and for an open order", () => {
    expect(keptLine({ reason: "discarded", since: "2026-12-06T08:08:00.000Z" }, when)).toBe(
      "The catalog no longer has this product since 2026-12-06; kept because you discarded its removal."
    )
    expect(keptLine({ reason: "open_order", since: "2026-12-05T08:08:00.000Z" }, when)).toBe(
      "The catalog no longer has this product since 2026-12-05; kept for an open order."
    )
  })
  it("counts add up to the total and name each reason", () => {
    expect(keptCountsText({ discarded: 1200, open_order: 2, total: 1202 }, formatCount)).toBe(
      "1,202 products the catalog no longer has: 1,200 by your discard, 2 for open orders"
    )
    expect(keptCountsText({ discarded: 1, open_order: 0, total: 1 }, formatCount)).toBe("1 product the catalog no longer has: 1 by your discard")
  })
})
