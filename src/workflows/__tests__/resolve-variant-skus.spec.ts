// resolveVariantSkus against a fake shop: which SKUs the shop's live variants hold decides
// between the plain and the suffixed SKU.
import { variantSkuCandidates } from "../../sync/map-card"
import { resolveVariantSkus, type ShopVariantSkus, type SkuSubject } from "../resolve-variant-skus"

type Variant = { id: string; sku: string; product_id: string }

function shopWith(live: Variant[], skuLookups: string[][] = []): ShopVariantSkus {
  return {
    async byIds(ids) {
      return live.filter((v) => ids.includes(v.id))
    },
    async bySkus(skus) {
      skuLookups.push(skus)
      return live.filter((v) => skus.includes(v.sku))
    },
  }
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
    await resolveVariantSkus(shopWith([{ id: "var_new", sku: plain, product_id: "prod_new" }]), [p], new Map([["77", "prod_new"]]))
    expect(p.input.variants[0].sku).toBe(plain)
  })

  it("a plain SKU another product holds is not taken", async () => {
    const p = planned(null)
    await resolveVariantSkus(shopWith([{ id: "var_other", sku: plain, product_id: "prod_other" }]), [p])
    expect(p.input.variants[0].sku).toBe(suffixed)
  })

  it("an update whose variants hold their plain SKUs keeps them without looking up who holds SKUs", async () => {
    const lookups: string[][] = []
    const p = planned({ id: "map_1", product_id: "prod_1", variant_ids: { M: "var_1" } } as any)
    await resolveVariantSkus(shopWith([{ id: "var_1", sku: plain, product_id: "prod_1" }], lookups), [p])
    expect(p.input.variants[0].sku).toBe(plain)
    expect(lookups).toEqual([])
  })

  it("an update whose variant holds the suffixed SKU takes the plain one once it is free", async () => {
    const lookups: string[][] = []
    const p = planned({ id: "map_1", product_id: "prod_1", variant_ids: { M: "var_1" } } as any)
    await resolveVariantSkus(shopWith([{ id: "var_1", sku: suffixed, product_id: "prod_1" }], lookups), [p])
    expect(p.input.variants[0].sku).toBe(plain)
    expect(lookups).toEqual([[plain]])
  })
})
