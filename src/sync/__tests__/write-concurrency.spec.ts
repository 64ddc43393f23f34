import { writeConcurrency } from "../write-concurrency"

describe("writeConcurrency", () => {
  it("reads an integer 1..4 and defaults to 2", () => {
    expect(writeConcurrency(undefined)).toBe(2)
    expect(writeConcurrency("")).toBe(2)
    expect(writeConcurrency("3")).toBe(3)
    expect(writeConcurrency(" 1 ")).toBe(1)
  })

  it("clamps out-of-range values and ignores what is not an integer", () => {
    expect(writeConcurrency("0")).toBe(1)
    expect(writeConcurrency("99")).toBe(4)
    for (const bad of ["abc", "2.5", "-1", "NaN", "Infinity", "1e3"]) expect(writeConcurrency(bad)).toBe(2)
  })
})
