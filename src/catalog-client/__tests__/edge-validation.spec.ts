// Validation at the edge: what the client lets through is already safe for Medusa and
// PostgreSQL, and every refused card (or dropped image) says id, field and why.
import { validateChangeItems, validateEach } from "../items"
import { LosslessNumber, parseCatalogJson } from "../json"
import { cleanExcerpt, cleanText, hasUnsafeText } from "../sanitise"
import { fieldName, imageUrlProblem, moneyProblem, productCardSchema, type ProductCard } from "../schemas"
import { mapCardToProduct } from "../../sync/map-card"

const card = (fields: Record<string, string> = {}) => {
  const base: Record<string, string> = {
    id: "5",
    sku: '"S-5"',
    name: '"Shoe"',
    cost_price: '"10.00"',
    price: '"13.00"',
    in_stock: "true",
    sizes: '[{"size":"42","stock":3,"price":"13.00","cost_price":"10.00"},{"size":"43","stock":0,"price":"14.50","cost_price":"11.00"}]',
    images: '[{"url":"https://cdn.example/1.jpg","is_main":true},{"url":"http://cdn.example/2.jpg","is_main":false}]',
    sync_version: "1",
    ...fields,
  }
  return `{${Object.entries(base)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `"${k}":${v}`)
    .join(",")}}`
}
const change = (product: string, extra = "") => `{"status":"updated","id":5,"product":${product}${extra}}`
const changes = (...items: string[]) => validateChangeItems(parseCatalogJson(`[${items.join(",")}]`) as unknown[])

describe("parseCatalogJson", () => {
  it("keeps numbers apart from strings: big numbers become LosslessNumber, strings stay strings", () => {
    const parsed = parseCatalogJson('{"a":9223372036854775807,"b":"9223372036854775807","c":12,"d":"12","e":1.50,"f":[-1e3,"x"]}')
    expect(parsed).toEqual({
      a: new LosslessNumber("9223372036854775807"),
      b: "9223372036854775807",
      c: 12,
      d: "12",
      e: new LosslessNumber("1.50"),
      f: [new LosslessNumber("-1e3"), "x"],
    })
  })

  it("a string that begins with NUL is kept exactly, never taken for a number", () => {
    const parsed = parseCatalogJson(String.raw`{"n":"\u0000N123","m":"\u0000","k":"a\u0000b","big":12345678901234567}`) as Record<string, unknown>
    expect(parsed.n).toBe("\u0000N123")
    expect(parsed.m).toBe("\u0000")
    expect(parsed.k).toBe("a\u0000b")
    expect(parsed.big).toEqual(new LosslessNumber("12345678901234567"))
    // Without marks the text is parsed as is.
    expect(parseCatalogJson('{"x":[1,2,"3"]}')).toEqual({ x: [1, 2, "3"] })
  })
})

describe("sanitise", () => {
  it("removes NUL, other C0 controls, DEL and lone surrogates; keeps tabs, newlines, emoji and Cyrillic", () => {
    expect(cleanText("Кеди\u0000 Nike\u0007\u007F")).toBe("Кеди Nike")
    expect(cleanText("a\tb\nc\r\nd")).toBe("a\tb\nc\r\nd")
    expect(cleanText("👟 ok")).toBe("👟 ok")
    expect(cleanText("x\uD800y\uDC00z")).toBe("xyz")
    expect(cleanText("\uDBFF")).toBe("")
    expect(hasUnsafeText("plain")).toBe(false)
    expect(hasUnsafeText("a\u0000")).toBe(true)
    expect(hasUnsafeText("a\u0000")).toBe(true) // the regex holds no state between calls
  })

  it("cuts excerpts without splitting a surrogate pair", () => {
    expect(cleanExcerpt("abcdef", 3)).toBe("abc…")
    expect(cleanExcerpt("ab👟cd", 3)).toBe("ab…")
    expect(cleanExcerpt("ab", 3)).toBe("ab")
  })
})

describe("card validation at the edge", () => {
  it("a valid card passes unchanged", () => {
    const { items, rejected, warnings } = changes(change(card()))
    expect(rejected).toEqual([])
    expect(warnings).toEqual([])
    expect(items[0]).toMatchObject({
      id: "5",
      product: {
        sizes: [
          { size: "42", price: "13.00" },
          { size: "43", price: "14.50" },
        ],
      },
    })
  })

  it("cleans text fields of NUL and other characters PostgreSQL refuses", () => {
    const { items, rejected } = changes(
      change(
        card({
          name: String.raw`"Shoe\u0000 \ud800X"`,
          sku: String.raw`"S\u0000-5"`,
          description_uk: String.raw`"a\u0001b"`,
          sizes: String.raw`[{"size":"4\u00002","stock":1}]`,
        })
      )
    )
    expect(rejected).toEqual([])
    const product = (items[0] as { product: Record<string, any> }).product
    expect(product.name).toBe("Shoe X")
    expect(product.sku).toBe("S-5")
    expect(product.description_uk).toBe("ab")
    expect(product.sizes[0].size).toBe("42")
  })

  it.each([
    ["a string id", { id: '"5"' }, "id", /got a string/],
    ["an id of 0", { id: "0" }, "id", /integer id/],
    ["an id beyond int64", { id: "9223372036854775808" }, "id", /integer id/],
    ["a fractional id", { id: "5.5" }, "id", /integer id/],
    ["a string stock", { sizes: '[{"size":"42","stock":"3"}]' }, "sizes[0].stock", /got a string/],
    ["a negative stock", { sizes: '[{"size":"42","stock":-1}]' }, "sizes[0].stock", /non-negative/],
    ["a huge stock", { sizes: '[{"size":"42","stock":100000000000000000000}]' }, "sizes[0].stock", /integer/],
    ["a string sync_version", { sync_version: '"1"' }, "sync_version", /got a string/],
    ["a negative size price", { sizes: '[{"size":"42","stock":1,"price":"-1.00"}]' }, "sizes[0].price", /negative/],
    ["a 30-digit price", { price: '"123456789012345678901234567890"' }, "price", /too large/],
    ["a 30-digit JSON number price", { sizes: '[{"size":"42","stock":1,"price":123456789012345678901234567890}]' }, "sizes[0].price", /too large/],
    ["a price with 3 decimals", { cost_price: '"10.005"' }, "cost_price", /decimals/],
    ["a price in exponent form", { price: '"1e3"' }, "price", /decimal/],
    ["a price that is not a number", { old_price: '"abc"' }, "old_price", /decimal/],
    ["a duplicate size", { sizes: '[{"size":"42","stock":1},{"size":" 42 ","stock":2}]' }, "sizes[1].size", /repeats/],
    ["an empty size", { sizes: '[{"size":"  ","stock":1}]' }, "sizes[0].size", /empty/],
    ["a boolean as string", { in_stock: '"yes"' }, "in_stock", /boolean/i],
  ])("refuses %s with its id, the field and a reason", (_what, fields, field, reason) => {
    const { items, rejected } = changes(change(card(fields), ""))
    expect(items).toEqual([])
    expect(rejected).toHaveLength(1)
    expect(rejected[0].field).toBe(field)
    expect(rejected[0].reason).toMatch(reason)
    // The change item's own id (5) is readable even when the card's is not.
    expect(rejected[0].id).toBe("5")
  })

  it("refuses an unknown status and a string id on the change item itself", () => {
    const { items, rejected } = changes(
      `{"status":"archived","id":7,"product":${card({ id: "7" })}}`,
      `{"status":"removed","id":"8"}`,
      `{"status":"updated","id":"9","product":${card({ id: "9" })}}`,
      `{"status":"removed","id":10}`
    )
    expect(items).toEqual([{ status: "removed", id: "10" }])
    expect(rejected.map((r) => [r.id, r.field])).toEqual([
      ["7", "status"],
      ["8", "id"],
      ["9", "id"],
    ])
    expect(rejected[0].reason).toMatch(/unknown status "archived"/)
  })

  it("an item without a readable id keeps its raw text for the excerpt", () => {
    const { rejected } = changes(`{"status":"updated","product":{"sku":"no id"}}`, `"just a string"`)
    expect(rejected.map((r) => r.id)).toEqual([null, null])
    expect(rejected[0].raw).toContain("no id")
    expect(rejected[1].raw).toBe('"just a string"')
  })

  it("drops image URLs that are not absolute http(s), reports each, keeps the card; the next valid image leads", () => {
    const images = JSON.stringify([
      { url: "javascript:alert(1)", is_main: true },
      { url: "data:text/html,<b>x</b>", is_main: false },
      { url: "file:///etc/passwd", is_main: false },
      { url: "not a url", is_main: false },
      { url: " https://cdn.example/ok.jpg ", is_main: false },
      { url: "//cdn.example/relative.jpg", is_main: false },
    ])
    const { items, rejected, warnings } = changes(change(card({ images })))
    expect(rejected).toEqual([])
    const product = (items[0] as { product: Record<string, any> }).product
    expect(product.images).toEqual([{ url: "https://cdn.example/ok.jpg", is_main: false }])
    expect(warnings.map((w) => [w.id, w.field])).toEqual([
      ["5", "images[0].url"],
      ["5", "images[1].url"],
      ["5", "images[2].url"],
      ["5", "images[3].url"],
      ["5", "images[5].url"],
    ])
    for (const w of warnings) expect(w.reason).toMatch(/image dropped, card kept/)
    // Cards of /v1/products get the same screening.
    const listed = validateEach(parseCatalogJson(`[${card({ images })}]`) as unknown[], productCardSchema)
    expect(listed.items[0].images).toHaveLength(1)
    expect(listed.warnings).toHaveLength(5)
  })
})

describe("what reaches the mapping", () => {
  it("a validated card maps to safe input: kept images in order, the next good image as thumbnail, clean text", () => {
    const images = JSON.stringify([
      { url: "javascript:alert(1)", is_main: true },
      { url: "https://cdn.example/b.jpg", is_main: false },
      { url: "https://cdn.example/c.jpg", is_main: false },
    ])
    const { items } = changes(change(card({ images, name: String.raw`"N\u0000ame"`, sku: String.raw`"S\u0000KU"` })))
    const product = (items[0] as { product: ProductCard }).product
    const input = mapCardToProduct(product, { primaryLanguage: "uk", salesChannelId: null })
    expect(input.images).toEqual([{ url: "https://cdn.example/b.jpg" }, { url: "https://cdn.example/c.jpg" }])
    expect(input.thumbnail).toBe("https://cdn.example/b.jpg")
    expect(input.title).toBe("Name")
    expect(input.variants.map((v) => v.sku)).toEqual(["SKU-42", "SKU-43"])
    expect(JSON.stringify(input)).not.toMatch(/\\u0000|javascript:/)
  })
})

describe("negative zero money", () => {
  it("is read as zero: every price field of a card and its sizes, as text or a JSON number", () => {
    const { items, rejected } = changes(
      change(
        card({
          cost_price: "-0.0",
          price: '"-0.00"',
          old_price: '"-0"',
          sizes: '[{"size":"42","stock":3,"price":"-0.00","cost_price":-0.0,"old_price":"-0"},{"size":"43","stock":1,"price":-0,"cost_price":"-000.00"}]',
        })
      )
    )
    expect(rejected).toEqual([])
    const product = (items[0] as { product: ProductCard }).product
    expect([product.cost_price, product.price, product.old_price]).toEqual(["0.0", "0.00", "0"])
    expect(product.sizes.map((s) => [s.price, s.cost_price, s.old_price ?? null])).toEqual([
      ["0.00", "0.0", "0"],
      ["0", "000.00", null],
    ])
    // Mapped, it is a published product whose sizes are priced at zero, never a draft.
    const input = mapCardToProduct(product, { primaryLanguage: "uk", salesChannelId: null })
    expect(input.status).toBe("published")
    expect(input.variants.map((v) => v.amount)).toEqual(["0.00", "0.00"])
  })

  it("a negative amount other than zero is still refused with its field", () => {
    const { items, rejected } = changes(change(card({ sizes: '[{"size":"42","stock":3,"price":"-0.01","cost_price":"1.00"}]' })))
    expect(items).toEqual([])
    expect(rejected).toMatchObject([{ id: "5", field: "sizes[0].price" }])
  })
})

describe("edge helpers", () => {
  it("money: non-negative, at most 13 integer digits and 2 decimals (trailing zeros aside)", () => {
    expect(moneyProblem("0")).toBeNull()
    expect(moneyProblem("-0.00")).toBeNull()
    expect(moneyProblem("9999999999999.99")).toBeNull()
    expect(moneyProblem("0009999999999999.99")).toBeNull()
    expect(moneyProblem("12.3400")).toBeNull()
    expect(moneyProblem("10000000000000")).toMatch(/too large/)
    expect(moneyProblem("1.001")).toMatch(/decimals/)
    expect(moneyProblem("-0.01")).toMatch(/negative/)
  })

  it("image URLs", () => {
    expect(imageUrlProblem("https://a.example/x.jpg?w=1")).toBeNull()
    expect(imageUrlProblem("HTTP://A.EXAMPLE/x.jpg")).toBeNull()
    expect(imageUrlProblem("https://user:pw@a.example/x.jpg")).toMatch(/credentials/)
    expect(imageUrlProblem("https://a.example/" + "x".repeat(3000))).toMatch(/longer/)
    expect(imageUrlProblem('https://a.example/"><script>')).toMatch(/markup/)
    expect(imageUrlProblem("ftp://a.example/x.jpg")).toMatch(/http/)
  })

  it("field names", () => {
    expect(fieldName(["sizes", 0, "price"])).toBe("sizes[0].price")
    expect(fieldName(["id"])).toBe("id")
    expect(fieldName([])).toBeNull()
  })
})
