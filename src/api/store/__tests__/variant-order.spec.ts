// The store routes' variant order: the list asks Medusa for variants by rank without changing the
// products' own order; the one-product answer is sorted by rank, stably.
import { variantsByRank, withVariantsByRank } from "../variant-order"

describe("variants by rank in the store routes", () => {
  it("keeps the products' order (id by default) and adds the variants' rank", () => {
    expect(withVariantsByRank(undefined)).toEqual({ id: "ASC", variants: { variant_rank: "ASC" } })
    expect(withVariantsByRank({})).toEqual({ id: "ASC", variants: { variant_rank: "ASC" } })
    expect(withVariantsByRank({ created_at: "DESC" })).toEqual({ created_at: "DESC", variants: { variant_rank: "ASC" } })
    // A storefront's own variants order wins.
    expect(withVariantsByRank({ variants: { variant_rank: "DESC" } })).toEqual({ variants: { variant_rank: "DESC" } })
  })
  it("sorts one product's variants by rank; unranked ones keep their place after them", () => {
    const v = (title: string, variant_rank: number | null) => ({ title, variant_rank })
    expect(variantsByRank([v("XL", 4), v("XS", 0), v("M", 2), v("S", 1), v("?", null), v("L", 3)]).map((x) => x.title)).toEqual([
      "XS",
      "S",
      "M",
      "L",
      "XL",
      "?",
    ])
  })
})
