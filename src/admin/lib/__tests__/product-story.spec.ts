import { KEPT_SIZE_MARK, belowCostNote, catalogBadge, draftReason, keptSizesNote, lastChangeLabel, markupText } from "../product-story"

const size = (selling: string | null) => ({ variant_id: "v", size: "42", sku: null, selling, crossed_out: null, cost: null, markup_percent: null })

describe("product story", () => {
  it("a draft with no price anywhere says the catalog has no price; the badge says Draft, not Active", () => {
    expect(draftReason("draft", { status: "active" }, [size(null), size(null)])).toMatch(/no price for this product/)
    expect(catalogBadge("draft", { status: "active" })).toEqual({ label: "Draft", color: "orange" })
  })
  it("a published product has no draft reason", () => {
    expect(draftReason("published", { status: "active" }, [size("10.00")])).toBeNull()
    expect(catalogBadge("published", { status: "active" }).label).toBe("Synced")
  })
  it("a removal kept as draft says so", () => {
    expect(draftReason("draft", { status: "draft" }, null)).toMatch(/no longer sells/)
    // Held for an open order: the map says "draft" too, but the removal setting has nothing to do with it.
    const held = draftReason("draft", { status: "draft" }, null, "open_order")
    expect(held).toMatch(/while an open order holds it/)
    expect(held).not.toMatch(/removal setting/)
    expect(catalogBadge("draft", { status: "draft" }).label).toBe("Removed, kept as draft")
  })
})

describe("the product widget's last change and markup", () => {
  it("labels a reprice's change as the shop's pricing rules, never as the catalog's", () => {
    expect(lastChangeLabel({ run_mode: "reprice" })).toBe("Last change (your pricing rules)")
    expect(lastChangeLabel({ run_mode: "changes" })).toBe("Last catalog change")
    expect(lastChangeLabel({ run_mode: "full" })).toBe("Last catalog change")
  })

  it("flags a size sold below cost (a locked price under a risen cost), as the price guards do", () => {
    // The figure only, so the prices table fits the side column (issue 43); the red cell and the line under the table flag it.
    expect(markupText("-7.32")).toEqual({ text: "−7.32 %", belowCost: true })
    expect(markupText("30.00")).toEqual({ text: "30.00 %", belowCost: false })
    expect(markupText("0.00")).toEqual({ text: "0.00 %", belowCost: false })
    expect(markupText(null)).toEqual({ text: "—", belowCost: false })
    expect(belowCostNote([{ markup_percent: "-7.32" }, { markup_percent: "12.00" }])).toBe(
      "1 size sells below cost: the shop's price is under what the catalog charges. Check the price lock or the pricing rules."
    )
    expect(belowCostNote([{ markup_percent: "-7.32" }])).toMatch(/^This size sells below cost/)
    expect(belowCostNote([{ markup_percent: "12.00" }, { markup_percent: null }])).toBeNull()
  })
})

describe("sizes kept for open orders on the widget (issue 43, review of the admin)", () => {
  const size = (name: string, kept = false) => ({ size: name, kept_for_order: kept ? { since: "2026-12-06T08:08:00.000Z" } : undefined })
  it("says which sizes only an open order keeps, in the admin's words; nothing when none is", () => {
    expect(keptSizesNote([size("S"), size("M", true), size("L")])).toBe(
      "Size M is kept for an open order: the catalog no longer has it; the shop removes it once the order is fulfilled or cancelled."
    )
    expect(keptSizesNote([size("41", true), size("42", true), size("43", true)])).toBe(
      "Sizes 41, 42 and 43 are kept for open orders: the catalog no longer has them; the shop removes each once its order is fulfilled or cancelled."
    )
    expect(keptSizesNote([size("S"), size("M")])).toBeNull()
    expect(KEPT_SIZE_MARK).toBe("kept for an open order")
  })
})
