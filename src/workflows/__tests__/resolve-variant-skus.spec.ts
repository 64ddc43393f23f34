// resolveVariantSkus against a fake product module: which SKUs the shop's live variants hold
// decides between the plain and the suffixed SKU.
import { Modules } from "@medusajs/framework/utils"
import { variantSkuCandidates } from "../../sync/map-card"
import { resolveVariantSkus, type SkuSubject } from "../resolve-variant-skus"

type Variant = { id: string; sku: string; product_id: string }

function containerWith(live: Variant[], skuLookups: string[][] = []) {
  const productModule = {
    async listProductVariants(filter: { id?: string[]; sku?: string[] }) {
      if (filter.id) return live.filter((v) => filter.id!.includes(v.id))
      if (filter.sku) skuLookups.push(filter.sku)
      if (filter.sku) return live.filter((v) => filter.sku!.includes(v.sku))
      return []
    },
  }
  return { resolve: (key: string) => (key === Modules.PRODUCT ? productModule : undefined) } as any
}

const card = { id: "77", sku: "TEE" }
const [plain, suffixed] = variantSkuCandidates(card as any, "M")

function planned(row: SkuSubject["row"]): SkuSubject {
  return { catalogId: "77", card, row, input: { variants: [{ sizeKey: "M", sku: "" }] } }
}

describe("resolveVariantSkus", () => {
  it("a product deleted in the admin whose re-create a crash left behind keeps the plain SKUs of the copy it adopts", async () => {
    // The map still names the deleted product; the crashed re-create (prod_new) holds the plain SKU.
    const p = planned({ id: "map_1", product_id: "prod_deleted", variant_ids: { M: "var_deleted" } } as any)
    await resolveVariantSkus(containerWith([{ id: "var_new", sku: plain, product_id: "prod_new" }]), [p], new Map([["77", "prod_new"]]))
    expect(p.input.variants[0].sku).toBe(plain)
  })

  it("a plain SKU another product holds is not taken", async () => {
    const p = planned(null)
    await resolveVariantSkus(containerWith([{ id: "var_other", sku: plain, product_id: "prod_other" }]), [p])
    expect(p.input.variants[0].sku).toBe(suffixed)
  })

  it("an update whose variants hold their plain SKUs keeps them without looking up who holds SKUs", async () => {
    const lookups: string[][] = []
    const p = planned({ id: "map_1", product_id: "prod_1", variant_ids: { M: "var_1" } } as any)
    await resolveVariantSkus(containerWith([{ id: "var_1", sku: plain, product_id: "prod_1" }], lookups), [p])
    expect(p.input.variants[0].sku).toBe(plain)
    expect(lookups).toEqual([])
  })

  it("an update whose variant holds the suffixed SKU takes the plain one once it is free", async () => {
    const lookups: string[][] = []
    const p = planned({ id: "map_1", product_id: "prod_1", variant_ids: { M: "var_1" } } as any)
    await resolveVariantSkus(containerWith([{ id: "var_1", sku: suffixed, product_id: "prod_1" }], lookups), [p])
    expect(p.input.variants[0].sku).toBe(plain)
    expect(lookups).toEqual([[plain]])
  })
})
