// The store routes' variant order: each product's variants are answered by rank, sorted in the
// answer (not in SQL), stably; the products' own order is left as Medusa answers it.
import { sortListedVariantsByRank, sortProductVariantsByRank, variantsByRank } from "../variant-order"

type Handler = typeof sortListedVariantsByRank

/** Runs a middleware over a request reading `fields`, then answers `body` through res.json; what the client got. */
function answer(middleware: Handler, fields: string[], body: unknown) {
  const req = { queryConfig: { fields: [...fields], pagination: { order: { id: "ASC" } } } }
  let sent: unknown = null
  const res = { json: (b: unknown) => ((sent = b), res) }
  let nexted = 0
  middleware(req as never, res as never, () => nexted++)
  ;(res.json as (b: unknown) => unknown)(body)
  return { req, sent: sent as any, nexted }
}

const v = (title: string, variant_rank: number | null) => ({ title, variant_rank })

describe("variants by rank in the store routes", () => {
  it("sorts one product's variants by rank; unranked ones keep their place after them", () => {
    expect(variantsByRank([v("XL", 4), v("XS", 0), v("M", 2), v("S", 1), v("?", null), v("L", 3)]).map((x) => x.title)).toEqual([
      "XS",
      "S",
      "M",
      "L",
      "XL",
      "?",
    ])
  })

  it("the list: asks for the rank, sorts every listed product's variants, leaves the products' order and the query's order alone", () => {
    const body = {
      products: [
        { id: "p2", variants: [v("L", 2), v("S", 0), v("M", 1)] },
        { id: "p1", variants: [v("42", 1), v("41", 0)] },
        { id: "p3", variants: null },
      ],
      count: 3,
    }
    const { req, sent, nexted } = answer(sortListedVariantsByRank, ["id", "variants.calculated_price.*"], body)
    expect(nexted).toBe(1)
    expect(req.queryConfig.fields).toContain("variants.variant_rank")
    // No order on the variants reaches the query (it sorted the whole catalog in SQL).
    expect(req.queryConfig.pagination.order).toEqual({ id: "ASC" })
    expect(sent.products.map((p: any) => p.id)).toEqual(["p2", "p1", "p3"])
    expect(sent.products[0].variants.map((x: any) => x.title)).toEqual(["S", "M", "L"])
    expect(sent.products[1].variants.map((x: any) => x.title)).toEqual(["41", "42"])
    expect(sent.count).toBe(3)
  })

  it("a request that reads no variants is left as it is", () => {
    const body = { products: [{ id: "p1" }] }
    for (const middleware of [sortListedVariantsByRank, sortProductVariantsByRank]) {
      const { req, sent } = answer(middleware, ["id", "title"], body)
      expect(req.queryConfig.fields).toEqual(["id", "title"])
      expect(sent).toBe(body)
    }
  })

  it("one product: its variants by rank", () => {
    const { req, sent } = answer(sortProductVariantsByRank, ["id", "variants.*"], { product: { id: "p1", variants: [v("M", 1), v("S", 0)] } })
    expect(req.queryConfig.fields).toContain("variants.variant_rank")
    expect(sent.product.variants.map((x: any) => x.title)).toEqual(["S", "M"])
  })
})
