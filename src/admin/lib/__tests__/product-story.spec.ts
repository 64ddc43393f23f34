import {
  KEPT_SIZE_BADGE,
  REMOVED_FROM_CATALOG,
  belowCostNote,
  catalogBadge,
  draftReason,
  heldPriceSizes,
  heldPriceText,
  keptSizeTitle,
  keptSizesNote,
  lastChangeLabel,
  lastChangeOf,
  lastChangeText,
  markupText,
} from "../product-story"
import type { RunChange } from "../types"

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
  })

  it("marks a kept size with one short badge (the size cell wrapped over 4 lines), the why in its tooltip and the line below", () => {
    // Was "kept for an open order" in the cell: "XXL / kept for / an open / order" in the side column.
    expect(KEPT_SIZE_BADGE).toBe("kept")
    expect(KEPT_SIZE_BADGE).not.toMatch(/\s/)
    expect(keptSizeTitle("2026-12-06T08:08:00.000Z", () => "6 Dec 2026, 08:08")).toBe("Kept for an open order since 6 Dec 2026, 08:08")
  })
})

const row = (over: Partial<RunChange> = {}): RunChange => ({
  id: "c1",
  run_id: "run_1",
  catalog_id: "101",
  product_id: "prod_1",
  title: "Кросівки",
  kind: "updated",
  price_changed: false,
  stock_changed: false,
  sizes_changed: false,
  images_changed: false,
  text_changed: false,
  price_before: null,
  price_after: null,
  reason: null,
  held: null,
  created_at: "2026-12-07T16:00:00.000Z",
  run_mode: "changes",
  ...over,
})

describe("the widget's last catalog change of a product the catalog no longer has (review of the widget)", () => {
  const keptAt = { since: "2026-12-07T16:24:00.000Z", run_id: "run_paused" }

  it("is its removal from the catalog, at the kept line's date, not an older creation or stock update", () => {
    // Was "Last catalog change: Created · 4,829.98 ₴ · 8 min ago" under "no longer has this product since 16:24".
    const created = row({ kind: "created", price_after: "4829.98", created_at: "2026-12-07T10:00:00.000Z" })
    expect(lastChangeOf([created], keptAt)).toEqual({ kind: "removed", since: keptAt.since, run_id: "run_paused" })
    const stock = row({ stock_changed: true, created_at: "2026-12-07T16:20:00.000Z" })
    expect(lastChangeOf([stock], { since: "2026-12-07T16:26:00.000Z", run_id: null })).toEqual({
      kind: "removed",
      since: "2026-12-07T16:26:00.000Z",
      run_id: null,
    })
    expect(lastChangeOf([], keptAt)).toEqual({ kind: "removed", since: keptAt.since, run_id: "run_paused" })
    expect(REMOVED_FROM_CATALOG).toBe("Removed from the catalog")
  })

  it("a reprice after the removal is the shop's own rules, labelled so; a product not kept shows its newest row", () => {
    const reprice = row({ run_mode: "reprice", created_at: "2026-12-07T17:00:00.000Z" })
    expect(lastChangeOf([reprice], keptAt)).toEqual({ kind: "change", change: reprice })
    expect(lastChangeOf([row({ run_mode: "reprice", created_at: "2026-12-07T16:00:00.000Z" })], keptAt)?.kind).toBe("removed")
    const newest = row()
    expect(lastChangeOf([newest, row({ id: "c0" })], null)).toEqual({ kind: "change", change: newest })
    expect(lastChangeOf([], null)).toBeNull()
    expect(lastChangeOf(undefined, null)).toBeNull()
  })
})

describe("the widget's last change in words", () => {
  it('says a stock-only update once: "Stock only", never "Stock only (stock)"', () => {
    expect(lastChangeText(row({ stock_changed: true }), null)).toBe("Stock only")
    expect(lastChangeText(row({ held: { stock: true } }), null)).toBe("Stock only · held by your lock")
    // Other updates keep their list of what changed, and the price move.
    expect(lastChangeText(row({ price_changed: true, stock_changed: true, price_before: "1200", price_after: "1300" }), null)).toBe(
      "Updated (price, stock) · 1,200.00 ₴ → 1,300.00 ₴"
    )
    expect(lastChangeText(row({ kind: "created", price_after: "4829.98" }), null)).toBe("Created · 4,829.98 ₴")
    expect(lastChangeText(row({ text_changed: true, held: { title: "New", stock: true } }), null)).toBe(
      "Updated (text) · title held by your lock (catalog “New”); stock held by your lock"
    )
  })

  it("names the price a lock held per size, with the rules' price of that size, never the product's lowest", () => {
    // The review: size 40 changed to 1,481.09 ₴ under the lock; 829.14 ₴ is size 45's unchanged price (the lowest).
    const sizes = [
      { size: "40", selling: "1210.00" },
      { size: "45", selling: "829.14" },
    ]
    const held = heldPriceSizes("829.14", { "40": "1481.09", "45": "829.14" }, sizes)
    expect(held).toEqual([{ size: "40", price: "1481.09" }])
    const text = lastChangeText(row({ held: { prices: "829.14" } }), held)
    expect(text).toBe("Updated · price held by your lock (the pricing rules would set 1,481.09 ₴ for size 40)")
    expect(text).not.toContain("829.14")
  })

  it("lists two held sizes, counts three or more (their prices are under Field locks), and drops a figure it cannot place", () => {
    expect(
      heldPriceText([
        { size: "40", price: "1481.09" },
        { size: "41", price: null },
      ])
    ).toBe("price held by your lock (the pricing rules would set 1,481.09 ₴ for size 40, no price for size 41)")
    expect(
      heldPriceText([
        { size: "S", price: "1" },
        { size: "M", price: "2" },
        { size: "L", price: "3" },
      ])
    ).toBe("price held by your lock for 3 sizes (the pricing rules' prices for them are below, under Field locks)")
    // A card without sizes: no size to name.
    expect(heldPriceText(heldPriceSizes("500.00", { "": "500.00" }, [{ size: "", selling: "450.00" }]))).toBe(
      "price held by your lock (the pricing rules would set 500.00 ₴)"
    )
    // No per-size values (the lock is off now, not loaded), or values of another write than the row's: no figure.
    expect(heldPriceSizes("829.14", null, [{ size: "40", selling: "1.00" }])).toBeNull()
    expect(heldPriceSizes("829.14", { "40": "1600.00", "45": "900.00" }, [{ size: "40", selling: "1.00" }])).toBeNull()
    expect(heldPriceSizes("829.14", { "40": "1481.09", "45": "829.14" }, null)).toBeNull()
    expect(heldPriceText(null)).toBe("price held by your lock")
    expect(heldPriceText([])).toBe("price held by your lock")
  })
})
