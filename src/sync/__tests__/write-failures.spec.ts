import { judgeFailures } from "../write-failures"

const dataError = (message: string) => Object.assign(new Error(message), { type: "invalid_data" })

describe("judgeFailures", () => {
  it("rejects products that failed on their data, even when nothing else was written", () => {
    const verdict = judgeFailures([{ catalogId: "7", error: dataError("Product variant with sku: A-1-2, already exists.") }], 0)
    expect(verdict).toEqual({ rejected: [{ id: "7", reason: "write failed: Product variant with sku: A-1-2, already exists." }] })
  })

  it("rejects any failure when other products of the page were written", () => {
    const verdict = judgeFailures([{ catalogId: "7", error: new Error("odd") }], 3)
    expect(verdict).toEqual({ rejected: [{ id: "7", reason: "write failed: odd" }] })
  })

  it("fails the page when nothing was written and no failure blames the data", () => {
    const down = new Error("Connection terminated")
    expect(judgeFailures([{ catalogId: "7", error: down }, { catalogId: "8", error: new Error("x") }], 0)).toEqual({ fatal: down })
  })

  it("has nothing to reject without failures", () => {
    expect(judgeFailures([], 0)).toEqual({ rejected: [] })
  })
})
