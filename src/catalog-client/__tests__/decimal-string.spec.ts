// decimalString: money arrives as strings, LosslessNumbers or (integers of up to 15 digits,
// as parseExactJson leaves them) JS numbers; only values whose exact text is known pass.
import { parseExactJson } from "../json"
import { decimalString, sizeSchema } from "../schemas"

describe("decimalString", () => {
  it("accepts a JSON integer price as its exact text", () => {
    const parsed = parseExactJson('{"size":"42","stock":1,"cost_price":1300,"price":1690.50}') as Record<string, unknown>
    expect(typeof parsed.cost_price).toBe("number")
    const size = sizeSchema.parse(parsed)
    expect(size.cost_price).toBe("1300")
    expect(size.price).toBe("1690.50")
  })

  it("accepts safe integers and short fractions given as JS numbers", () => {
    expect(decimalString.parse(0)).toBe("0")
    expect(decimalString.parse(-5)).toBe("-5")
    expect(decimalString.parse(9007199254740991)).toBe("9007199254740991")
    expect(decimalString.parse(12.5)).toBe("12.5")
    expect(decimalString.parse(0.1)).toBe("0.1")
  })

  it("rejects non-finite numbers, unsafe integers and floats that may have lost digits", () => {
    for (const bad of [NaN, Infinity, -Infinity, 9007199254740993, 1e21, 1e-7, 0.1 + 0.2, 1234567890.1234567]) {
      expect(decimalString.safeParse(bad).success).toBe(false)
    }
    expect(decimalString.safeParse(true).success).toBe(false)
    expect(decimalString.safeParse("1e3").success).toBe(false)
  })
})
