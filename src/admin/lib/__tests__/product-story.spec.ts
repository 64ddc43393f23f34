import { catalogBadge, draftReason } from "../product-story"

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
