import { planStockBatches } from "../stock-batches"

describe("planStockBatches", () => {
  it("puts every value in exactly one batch of at most 200 products", () => {
    const ids = Array.from({ length: 450 }, (_, i) => String(i + 1))
    const skus = Array.from({ length: 30 }, (_, i) => `SKU-${i}`)
    const batches = planStockBatches(ids, skus)
    for (const b of batches) expect(b.ids.length + b.skus.length).toBeLessThanOrEqual(200)
    expect(batches.flatMap((b) => b.ids)).toEqual(ids)
    expect(batches.flatMap((b) => b.skus)).toEqual(skus)
    expect(batches).toHaveLength(3)
  })

  it("keeps ids within 4000 characters and skus within 8000", () => {
    const ids = Array.from({ length: 600 }, (_, i) => (9223372036854775807n - BigInt(i)).toString())
    const skus = Array.from({ length: 300 }, (_, i) => `${"X".repeat(90)}-${i}`)
    const batches = planStockBatches(ids, skus)
    for (const b of batches) {
      expect(b.ids.join(",").length).toBeLessThanOrEqual(4000)
      expect(b.skus.join(",").length).toBeLessThanOrEqual(8000)
      expect(b.ids.length + b.skus.length).toBeLessThanOrEqual(200)
    }
    expect(batches.flatMap((b) => b.ids)).toEqual(ids)
    expect(batches.flatMap((b) => b.skus)).toEqual(skus)
    // 19-digit ids: 200 of them need 3999 characters, so the character limit bites at 200.
    expect(batches[0].ids).toHaveLength(200)
  })

  it("returns no batch for nothing", () => {
    expect(planStockBatches([], [])).toEqual([])
  })
})
