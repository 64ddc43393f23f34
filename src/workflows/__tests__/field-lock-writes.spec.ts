import { recordedFieldValues, salePriceSubjects, stockOnlyLevels } from "../page/field-lock-writes"
import type { PlannedRecord, WrittenProduct } from "../page/page-types"

const stockOnly = (productId: string, stock: Record<string, number>) =>
  ({
    catalogId: `c-${productId}`,
    stock,
    row: { product_id: productId, inventory_item_ids: Object.fromEntries(Object.keys(stock).map((s) => [s, `iitem_${productId}_${s}`])) },
  }) as unknown as PlannedRecord

describe("field-lock writes of a page", () => {
  it("skips the stock levels of a product whose stock is locked, and records the catalog's stock for it", () => {
    const records = [stockOnly("p1", { "42": 5 }), stockOnly("p2", { "": 7 })]
    const locks = { byProductId: { p1: ["stock" as const] }, autoLockOnAdminEdit: false }
    expect(stockOnlyLevels(records, locks.byProductId)).toEqual([{ inventoryItemId: "iitem_p2_", quantity: 7 }])
    const recorded = recordedFieldValues(
      { held: [], written: {} },
      { created: [], updated: [] },
      { stockOnly: records, syncedAt: "2026-11-23T00:00:00Z" },
      locks
    )
    expect(recorded.held).toEqual([{ productId: "p1", catalogId: "c-p1", held: { stock: { "42": 5 } } }])
  })

  it("keeps the sale prices of locked sizes; a new size and unlocked products get theirs", () => {
    const written = [
      {
        productId: "p1",
        variants: [
          { sizeKey: "42", saleAmount: "90.00" },
          { sizeKey: "43", saleAmount: "95.00" },
        ],
      },
      { productId: "p2", variants: [{ sizeKey: "", saleAmount: null }] },
    ] as WrittenProduct[]
    expect(salePriceSubjects(written, { p1: ["42"] }).map((w) => w.variants.map((v) => v.sizeKey))).toEqual([["43"], [""]])
  })

  it("records held values only of products the page wrote", () => {
    const held = [
      { productId: "p1", catalogId: "1", held: { title: "new" } },
      { productId: "p9", catalogId: "9", held: { title: "failed" } },
    ]
    const writes = { created: [], updated: [{ catalogId: "1", result: { productId: "p1" } }] } as never
    const recorded = recordedFieldValues(
      { held, written: { "1": { title: "t" } } },
      writes,
      { stockOnly: [], syncedAt: "x" },
      { byProductId: {}, autoLockOnAdminEdit: true }
    )
    expect(recorded.held.map((h) => h.productId)).toEqual(["p1"])
    expect(recorded.written).toEqual([{ productId: "p1", catalogId: "1", values: { title: "t" } }])
  })
})
