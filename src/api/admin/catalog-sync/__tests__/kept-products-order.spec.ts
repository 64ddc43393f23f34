import { newestKeptFirst } from "../kept-products/route"

describe("the kept products' order", () => {
  it("is newest first, and by product id among those kept at the same moment, whatever order they were read in", () => {
    const at = "2026-12-06T08:08:00.000Z"
    const rows = [
      { since: at, product_id: "prod_c" },
      { since: "2026-12-07T01:00:00.000Z", product_id: "prod_z" },
      { since: at, product_id: "prod_a" },
      { since: at, product_id: "prod_b" },
    ]
    const expected = ["prod_z", "prod_a", "prod_b", "prod_c"]
    expect([...rows].sort(newestKeptFirst).map((r) => r.product_id)).toEqual(expected)
    expect(
      [...rows]
        .reverse()
        .sort(newestKeptFirst)
        .map((r) => r.product_id)
    ).toEqual(expected)
  })
})
