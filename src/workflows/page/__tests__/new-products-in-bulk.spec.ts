import { card } from "../../../sync/__tests__/card-fixtures"
import { mapCardToProduct, stockOf } from "../../../sync/map-card"
import type { CreatedProduct, ProductToCreate } from "../../page-input"
import { writeNewProducts, type NewProductWriters } from "../new-products-in-bulk"

const ctx = { primaryLanguage: "uk" as const, salesChannelId: "sc_1" }

function toCreate(id: string, over: Partial<ProductToCreate["input"]> = {}): ProductToCreate {
  const c = card({ id, sku: `SKU-${id}` })
  const input = { ...mapCardToProduct(c, ctx), ...over }
  return { catalogId: id, input, stock: stockOf(c) }
}

const made = (p: ProductToCreate, how: string): CreatedProduct => ({
  catalogId: p.catalogId,
  productId: `${how}_${p.catalogId}`,
  variantIds: {},
  inventoryItemIds: {},
})

/** Writers that record their calls; the bulk one fails as told, the chunked one fails the ids in `bad`. */
function writers(bulk: "ok" | "rolls back", bad: string[] = []) {
  const calls = { bulk: [] as string[][], chunks: [] as string[][], noted: 0 }
  const w: NewProductWriters = {
    async inOneTransaction(products) {
      calls.bulk.push(products.map((p) => p.catalogId))
      return bulk === "ok" ? { created: products.map((p) => made(p, "bulk")) } : { rolledBack: new Error("duplicate key value violates unique constraint") }
    },
    async inChunks(products) {
      calls.chunks.push(products.map((p) => p.catalogId))
      return {
        written: products.filter((p) => !bad.includes(p.catalogId)).map((item) => ({ item, result: made(item, "workflow") })),
        failed: products.filter((p) => bad.includes(p.catalogId)).map((item) => ({ item, error: new Error("bad") })),
      }
    },
    noteWritten: (n) => void (calls.noted += n),
  }
  return { w, calls }
}

describe("writing a page's new products", () => {
  const page = ["1", "2", "3", "4"].map((id) => toCreate(id))

  it("writes them all in one bulk transaction and moves the progress", async () => {
    const { w, calls } = writers("ok")
    const out = await writeNewProducts(page, w)
    expect(calls.bulk).toEqual([["1", "2", "3", "4"]])
    expect(calls.chunks).toEqual([])
    expect(calls.noted).toBe(4)
    expect(out.written.map((x) => x.result.productId)).toEqual(["bulk_1", "bulk_2", "bulk_3", "bulk_4"])
    expect(out.failed).toEqual([])
    expect(out.rolledBack).toBeNull()
  })

  it("when the bulk transaction rolls back, writes them all the workflow way, where the bad one fails alone", async () => {
    const { w, calls } = writers("rolls back", ["3"])
    const out = await writeNewProducts(page, w)
    expect(calls.chunks).toEqual([["1", "2", "3", "4"]])
    expect(calls.noted).toBe(0) // the chunked writer notes its own progress
    expect(out.written.map((x) => x.result.productId)).toEqual(["workflow_1", "workflow_2", "workflow_4"])
    expect(out.failed.map((f) => f.item.catalogId)).toEqual(["3"])
    expect((out.rolledBack as Error).message).toMatch(/unique constraint/)
  })

  it("sends a product the product module refuses the workflow way, the others in bulk, in input order", async () => {
    const odd = [toCreate("1"), toCreate("2", { handle: "Not A Handle" }), toCreate("3")]
    const { w, calls } = writers("ok", ["2"])
    const out = await writeNewProducts(odd, w)
    expect(calls.bulk).toEqual([["1", "3"]])
    expect(calls.chunks).toEqual([["2"]])
    expect(out.written.map((x) => x.result.productId)).toEqual(["bulk_1", "bulk_3"])
    expect(out.failed.map((f) => f.item.catalogId)).toEqual(["2"])
  })

  it("keeps input order when the workflow way writes a refused product before the bulk ones", async () => {
    const odd = [toCreate("1", { title: "" }), toCreate("2"), toCreate("3")]
    const { w } = writers("ok")
    const out = await writeNewProducts(odd, w)
    expect(out.written.map((x) => x.result.productId)).toEqual(["workflow_1", "bulk_2", "bulk_3"])
  })

  it("writes nothing for an empty page", async () => {
    const { w, calls } = writers("ok")
    expect(await writeNewProducts([], w)).toEqual({ written: [], failed: [], rolledBack: null })
    expect(calls).toEqual({ bulk: [], chunks: [], noted: 0 })
  })
})
