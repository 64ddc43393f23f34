import { keptCountsText, keptFateText, keptLine, shopProductsSplit, shopProductsSplitText } from "../kept-products"
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

describe("the shop's products from the catalog", () => {
  it("counts a product an open order keeps in the shop's total (its map is not live), and a discarded one once", () => {
    // 299 live catalog products: 298 the catalog sells, 1 kept for an open order (not in products_synced).
    expect(shopProductsSplit(298, { discarded: 0, open_order: 1, total: 1 })).toEqual({ total: 299, sold: 298, kept: 1, removing: 0 })
    // 800 live: 549 sold, 250 discarded (in products_synced), 1 for an order (not).
    expect(shopProductsSplit(799, { discarded: 250, open_order: 1, total: 251 })).toEqual({ total: 800, sold: 549, kept: 251, removing: 0 })
    expect(shopProductsSplit(10, { discarded: 0, open_order: 0, total: 0 })).toEqual({ total: 10, sold: 10, kept: 0, removing: 0 })
  })

  it("never counts a product whose removal waits for a run as one the catalog still sells", () => {
    // 300 live: the admin removed one of 70 kept products; its removal waits for the run it queued.
    // The catalog sells 230, not 231; 69 stay kept; one is about to go.
    const split = shopProductsSplit(300, { discarded: 69, open_order: 0, total: 69, removing: 1 })
    expect(split).toEqual({ total: 300, sold: 230, kept: 69, removing: 1 })
    expect(shopProductsSplitText(split, formatCount)).toBe("230 the catalog still sells · 69 it no longer has, kept by the shop · 1 waiting to be removed")
    // A pause holding 30 removals of 100: the catalog sells 70.
    expect(shopProductsSplitText(shopProductsSplit(100, { discarded: 0, open_order: 0, total: 0, removing: 30 }), formatCount)).toBe(
      "70 the catalog still sells · 30 waiting to be removed"
    )
  })
})

describe("what happens to kept products next", () => {
  it("never says a product an open order holds stays on sale", () => {
    expect(keptFateText({ discarded: 3, open_order: 0 })).toBe("They stay on sale until you remove them or the catalog sends them again.")
    expect(keptFateText({ discarded: 0, open_order: 1 })).toBe("They are drafts, off sale, and go once their order is fulfilled or cancelled.")
    expect(keptFateText({ discarded: 250, open_order: 1 })).toMatch(
      /^Those you kept by a discard stay on sale .*; those an open order holds are drafts, off sale/
    )
  })
})

describe("removals not decided yet (issue 43, review of the admin)", () => {
  it("while the safety brake waits for the answer, its held removals wait for it, not for removal", () => {
    // A pause holds 70 of 300: the server tells them apart (counts.awaiting_answer).
    const counts = { discarded: 0, open_order: 0, total: 0, removing: 70, awaiting_answer: 70, held_until_run_end: 0 }
    const text = shopProductsSplitText(shopProductsSplit(300, counts), formatCount, counts)
    expect(text).toBe("230 the catalog still sells · 70 held for your answer: Confirm removes them, Discard keeps them")
    expect(text).not.toMatch(/waiting to be removed/)
  })
  it("says each kind once: held for the answer, held until the run ends, decided", () => {
    const counts = { discarded: 2, open_order: 0, total: 2, removing: 10, awaiting_answer: 1, held_until_run_end: 4 }
    expect(shopProductsSplitText(shopProductsSplit(100, counts), formatCount, counts)).toBe(
      "88 the catalog still sells · 2 it no longer has, kept by the shop · 1 held for your answer: Confirm removes it, Discard keeps it · 4 held until the run ends, for the safety brake to check · 5 waiting to be removed"
    )
    // Confirmed: decided, they go with the next run.
    const confirmed = { discarded: 0, open_order: 0, total: 0, removing: 70, awaiting_answer: 0, held_until_run_end: 0 }
    expect(shopProductsSplitText(shopProductsSplit(300, confirmed), formatCount, confirmed)).toBe("230 the catalog still sells · 70 waiting to be removed")
  })
})
