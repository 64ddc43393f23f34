// normalizedDecimal: the form Medusa's BigNumber stores (Decimal#toFixed()), with a fast path for
// text already in it. Checked against decimal.js itself on tricky and random inputs.
import Decimal from "decimal.js"
import { normalizedDecimal } from "../amounts"

const byDecimal = (v: string | number) => new Decimal(String(v)).toFixed()

describe("normalizedDecimal", () => {
  it("writes what Decimal#toFixed() writes, for text in that form already and for every other spelling", () => {
    const inputs: (string | number)[] = [
      "0",
      "-0",
      "0.0",
      "00",
      "0.5",
      "-0.5",
      ".5",
      "5.",
      "1300.50",
      "1300.5",
      "1300",
      "01300",
      "-1300.500",
      "1e3",
      "1E-7",
      "12345678901234567890.123456789012345678901",
      "0.000000000000000000000001",
      "-0.000",
      "+5",
      "5.10",
      "99.99",
      1300.5,
      0,
      -0,
      1e21,
      0.1,
      123456789,
    ]
    for (const v of inputs) expect([v, normalizedDecimal(v)]).toEqual([v, byDecimal(v)])
    // Random decimals, spelled with and without leading and trailing zeros and signs.
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let i = 0; i < 5_000; i++) {
      const int = String(Math.floor(next() * 10 ** Math.floor(next() * 12)))
      const frac = String(Math.floor(next() * 10 ** Math.floor(next() * 6))).padStart(Math.floor(next() * 7), "0")
      const text = `${next() < 0.2 ? "-" : ""}${next() < 0.1 ? "0" : ""}${int}${next() < 0.7 ? `.${frac}${next() < 0.3 ? "0" : ""}` : ""}`
      expect([text, normalizedDecimal(text)]).toEqual([text, byDecimal(text)])
    }
  })

  it("refuses what is not a finite amount", () => {
    for (const v of ["NaN", "Infinity", "-Infinity", "abc", "", "1.2.3"]) expect(() => normalizedDecimal(v)).toThrow()
  })
})
