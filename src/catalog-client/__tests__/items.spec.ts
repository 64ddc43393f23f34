import { validateChangeItems, validateEach } from "../items"
import { parseCatalogJson, parseExactJson } from "../json"
import { productCardSchema } from "../schemas"
import { pricingQuery } from "../pricing"
import { toCatalogId } from "../ids"

const card = (id: string, extra = "") =>
  `{"id":${id},"sku":"UA-${id}","name":"Cap","cost_price":"1000.10","price":"1300.13","in_stock":true,` +
  `"sizes":[{"size":"42","stock":3,"cost_price":"990.00","price":"1287.00"}],` +
  `"images":[{"url":"http://x/0.png","is_main":true}],"sync_version":7,"brand":{"id":9223372036854775806,"name":"N"},` +
  `"future_field":{"x":1}${extra}}`

describe("per-item validation", () => {
  it("keeps ids above 2^53 and prices exactly, ignores unknown fields", () => {
    const raw = parseCatalogJson(`[${card("9223372036854775807")},${card("9007199254740993")}]`) as unknown[]
    const { items, rejected } = validateEach(raw, productCardSchema)
    expect(rejected).toEqual([])
    expect(items.map((c) => c.id)).toEqual(["9223372036854775807", "9007199254740993"])
    expect(items[0].brand?.id).toBe("9223372036854775806")
    expect(items[0].cost_price).toBe("1000.10")
    expect(items[0].sizes[0]).toEqual({ size: "42", stock: 3, cost_price: "990.00", price: "1287.00" })
    expect(items[0]).not.toHaveProperty("future_field")
  })

  it("rejects a bad card with its id and reason, keeping the rest of the page", () => {
    const raw = parseCatalogJson(
      `[${card("1")},${card("2", ',"in_stock":"yes"').replace('"in_stock":true,', "")},{"id":"x"},${card("9223372036854775808")}]`
    ) as unknown[]
    const { items, rejected } = validateEach(raw, productCardSchema)
    expect(items.map((c) => c.id)).toEqual(["1"])
    expect(rejected.map((r) => r.id)).toEqual(["2", null, null])
    expect(rejected[0].reason).toMatch(/in_stock/)
    expect(rejected[2].reason).toMatch(/^id:/)
    expect(rejected[2].raw).toContain("9223372036854775808")
  })

  it("reads change items: removed needs only an id; others a valid card", () => {
    const raw = parseCatalogJson(
      `[{"status":"removed","id":9223372036854775807},{"status":"updated","id":5,"product":${card("5")},"changed":["price"]},` +
        `{"status":"updated","id":6,"product":{"id":6}},{"status":"removed"}]`
    ) as unknown[]
    const { items, rejected } = validateChangeItems(raw)
    expect(items).toHaveLength(2)
    expect(items[0]).toEqual({ status: "removed", id: "9223372036854775807" })
    expect(items[1]).toMatchObject({ status: "updated", id: "5", changed: ["price"] })
    expect(rejected.map((r) => r.id)).toEqual(["6", null])
    expect(rejected[0].reason).toMatch(/product\.sku/)
  })
})

describe("pricingQuery", () => {
  it("normalises numbers and refuses out-of-range values", () => {
    expect(pricingQuery({ price_calculation: "min", markup_percent: "30.50", discount_percent: 0.1 })).toEqual({
      price_calculation: "min",
      markup_percent: "30.5",
      discount_percent: "0.1",
    })
    expect(() => pricingQuery({ markup_percent: "1000.01" })).toThrow(/markup_percent/)
    expect(() => pricingQuery({ discount_percent: 100 })).toThrow(/discount_percent/)
    expect(() => pricingQuery({ discount_percent: 5, old_price_markup_percent: 5 })).toThrow(/not both/)
  })
})

describe("parseExactJson", () => {
  it("keeps every digit of big integers and decimals, also next to tricky strings", () => {
    const text = String.raw`{"a":"x\\","b":12345678901234567,"c":"q\"9999999999999999\"","d":[-1.50,2e5,3,-9223372036854775807],"e":"\\\"","f":1}`
    expect(parseExactJson(text)).toEqual({
      a: "x\\",
      b: "12345678901234567",
      c: 'q"9999999999999999"',
      d: ["-1.50", "2e5", 3, "-9223372036854775807"],
      e: '\\"',
      f: 1,
    })
    expect(parseExactJson("[123456789012345,1234567890123456]")).toEqual([123456789012345, "1234567890123456"])
    expect(() => parseExactJson('{"a":"unterminated')).toThrow()
  })
})

describe("catalog ids", () => {
  it("accepts digit strings, bigints and safe numbers; refuses numbers that lost digits", () => {
    expect(toCatalogId("9223372036854775807")).toBe("9223372036854775807")
    expect(toCatalogId(9223372036854775807n)).toBe("9223372036854775807")
    expect(toCatalogId(42)).toBe("42")
    expect(toCatalogId(2 ** 53 + 2)).toBeNull()
    expect(toCatalogId("9223372036854775808")).toBeNull()
    expect(toCatalogId("0")).toBeNull()
    expect(toCatalogId("-1")).toBeNull()
    expect(toCatalogId("1.5")).toBeNull()
  })
})
