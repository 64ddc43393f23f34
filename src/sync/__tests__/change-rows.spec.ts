import { changeRowsOf, lowestPrice, NO_PRICE_REASON, plannedSellingPrice, type WrittenChange } from "../change-rows"

const written = (over: Partial<WrittenChange>): WrittenChange => ({
  catalogId: "c1",
  productId: "prod_1",
  title: "Boots",
  draft: false,
  sellingPrice: "1287.50",
  parts: null,
  stockChanged: false,
  imageUrls: null,
  ...over,
})
const none = { created: [], updated: [], stockOnly: [], removed: [], rejected: [] }

describe("selling prices", () => {
  it("is the lowest selling amount over the sizes, exact, as 2-decimal text", () => {
    expect(lowestPrice(["1300", "1287.5", null, "2000.10"])).toBe("1287.50")
    expect(lowestPrice([null, undefined])).toBeNull()
    expect(lowestPrice(["0.1", "0.30000000000000004"])).toBe("0.10")
    // The sale amount is what the customer pays when there is one.
    expect(
      plannedSellingPrice([
        { amount: "1500.00", saleAmount: "1200.00" },
        { amount: "1250.00", saleAmount: null },
      ])
    ).toBe("1200.00")
    expect(plannedSellingPrice([{ amount: null, saleAmount: null }])).toBeNull()
  })
})

describe("changeRowsOf", () => {
  it("a created product is 'created' with its price, or 'drafted' with the reason when it has none", () => {
    const rows = changeRowsOf({ ...none, created: [written({}), written({ catalogId: "c2", draft: true, sellingPrice: null })] }, {})
    expect(rows).toMatchObject([
      { kind: "created", catalog_id: "c1", product_id: "prod_1", title: "Boots", price_after: "1287.50", price_before: null },
      { kind: "drafted", catalog_id: "c2", reason: NO_PRICE_REASON },
    ])
  })

  it("an update says what changed, with the price before (from the shop) and after", () => {
    const parts = { fields: false, variants: false, prices: true }
    const rows = changeRowsOf(
      { ...none, updated: [written({ parts, stockChanged: true })] },
      { c1: { sellingPrice: "1200.00", title: "Boots", imageUrls: [] } }
    )
    expect(rows).toEqual([
      expect.objectContaining({
        kind: "updated",
        price_changed: true,
        stock_changed: true,
        sizes_changed: false,
        images_changed: false,
        text_changed: false,
        price_before: "1200.00",
        price_after: "1287.50",
      }),
    ])
  })

  it("tells images from text by comparing the image URLs with the shop's", () => {
    const parts = { fields: true, variants: true, prices: false }
    const before = { c1: { sellingPrice: null, title: "Boots", imageUrls: ["a", "b"] } }
    const [imagesOnly] = changeRowsOf({ ...none, updated: [written({ parts, imageUrls: ["b", "a"] })] }, before)
    expect(imagesOnly).toMatchObject({
      images_changed: true,
      text_changed: false,
      sizes_changed: true,
      price_changed: false,
      price_before: null,
      price_after: null,
    })
    const [textOnly] = changeRowsOf({ ...none, updated: [written({ parts, imageUrls: ["a", "b"] })] }, before)
    expect(textOnly).toMatchObject({ images_changed: false, text_changed: true })
    const [both] = changeRowsOf({ ...none, updated: [written({ parts, title: "Boots 2", imageUrls: ["a"] })] }, before)
    expect(both).toMatchObject({ images_changed: true, text_changed: true })
  })

  it("an update that loses every price is 'drafted' with the price it had", () => {
    const [row] = changeRowsOf(
      { ...none, updated: [written({ draft: true, sellingPrice: null, parts: { fields: false, variants: false, prices: true } })] },
      { c1: { sellingPrice: "999.00", title: "Boots", imageUrls: [] } }
    )
    expect(row).toMatchObject({ kind: "drafted", price_before: "999.00", price_after: null, reason: NO_PRICE_REASON })
  })

  it("stock-only, removed and rejected products get their rows", () => {
    const rows = changeRowsOf(
      {
        created: [],
        updated: [],
        stockOnly: [written({ parts: { fields: false, variants: false, prices: false }, stockChanged: true })],
        removed: [{ catalogId: "c9", productId: "prod_9" }],
        rejected: [{ id: "c7", reason: "mapping failed: bad size" }],
      },
      { c9: { sellingPrice: null, title: "Gone", imageUrls: [] } }
    )
    expect(rows).toMatchObject([
      { kind: "updated", stock_changed: true, price_changed: false },
      { kind: "removed", catalog_id: "c9", product_id: "prod_9", title: "Gone" },
      { kind: "rejected", catalog_id: "c7", reason: "mapping failed: bad size" },
    ])
  })
})

describe("changeRowsOf with field locks", () => {
  const before = { c1: { sellingPrice: "4969.19", title: "Shop title", imageUrls: ["a"] } }
  const prices = { fields: false, variants: false, prices: true }

  it("a locked price is logged as held with the catalog's selling price, never as a change", () => {
    const [row] = changeRowsOf({ ...none, updated: [written({ parts: prices, sellingPrice: "5963.02", locked: ["prices"] })] }, before)
    expect(row).toMatchObject({ kind: "updated", price_changed: false, price_before: null, price_after: null, held: { prices: "5963.02" } })
    // Without the lock it is a change.
    const [free] = changeRowsOf({ ...none, updated: [written({ parts: prices, sellingPrice: "5963.02" })] }, before)
    expect(free).toMatchObject({ price_changed: true, price_before: "4969.19", price_after: "5963.02" })
    expect(free.held ?? null).toBeNull()
  })

  it("a locked title keeps the shop's title on the row and records the catalog's; locked stock is held, not changed", () => {
    const fields = { fields: true, variants: false, prices: false }
    const [row] = changeRowsOf(
      { ...none, updated: [written({ parts: fields, title: "Catalog title", imageUrls: ["a"], locked: ["title", "description"] })] },
      before
    )
    expect(row).toMatchObject({ title: "Shop title", text_changed: false, held: { title: "Catalog title", description: true } })
    const [stock] = changeRowsOf(
      { ...none, stockOnly: [written({ parts: { fields: false, variants: false, prices: false }, stockChanged: true, locked: ["stock"] })] },
      before
    )
    expect(stock).toMatchObject({ kind: "updated", stock_changed: false, held: { stock: true } })
  })
})
