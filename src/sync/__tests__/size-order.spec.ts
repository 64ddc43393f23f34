import { compareSizes, sortSizes } from "../size-order"

const sorted = (sizes: string[]) => sortSizes(sizes, (s) => s)

describe("size order", () => {
  it("orders numeric sizes by value, decimals included", () => {
    expect(sorted(["40", "42", "41", "44"])).toEqual(["40", "41", "42", "44"])
    expect(sorted(["43", "42.5", "9", "42", "42,5"])).toEqual(["9", "42", "42,5", "42.5", "43"])
    expect(sorted(["100", "98"])).toEqual(["98", "100"])
  })

  it("orders letter sizes XXS to XXXL, 2XL and 3XL as XXL and XXXL, case-insensitively", () => {
    expect(sorted(["XL", "S", "XXXL", "M", "XS", "L", "XXS", "XXL"])).toEqual(["XXS", "XS", "S", "M", "L", "XL", "XXL", "XXXL"])
    expect(sorted(["3XL", "xl", "2XL", "m", "4XL"])).toEqual(["m", "xl", "2XL", "3XL", "4XL"])
    expect(compareSizes("2XL", "XXXL")).toBeLessThan(0)
    expect(compareSizes("3XS", "XXS")).toBeLessThan(0)
  })

  it("puts numbers first, then letters, then other text alphabetically", () => {
    expect(sorted(["One", "M", "40-42", "38", "S", "Alpha"])).toEqual(["38", "S", "M", "40-42", "Alpha", "One"])
  })

  it("is a total order: equal values are ordered by their text, so the result does not depend on the input order", () => {
    const a = sorted(["42.0", "42", "M", "m"])
    const b = sorted(["m", "M", "42", "42.0"])
    expect(a).toEqual(b)
  })
})
