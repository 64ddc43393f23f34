import { fingerprint, stableJson, stockFingerprint } from "../fingerprint"
import { mapCardToProduct, stockOf } from "../map-card"
import { card } from "./card-fixtures"

const ctx = { primaryLanguage: "uk" as const, salesChannelId: "sc_1" }

describe("fingerprint", () => {
  it("is stable under key order", () => {
    expect(stableJson({ b: 1, a: [{ y: 2, x: 1 }] })).toBe(stableJson({ a: [{ x: 1, y: 2 }], b: 1 }))
  })

  it("writes the text its first version wrote (stored fingerprints hash it)", () => {
    // The first version, kept here as the reference the one-pass writer must match byte for byte.
    const first = (value: unknown): string => {
      if (value === null || typeof value !== "object") return JSON.stringify(value ?? null)
      if (Array.isArray(value)) return `[${value.map(first).join(",")}]`
      const record = value as Record<string, unknown>
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort()
      return `{${keys.map((k) => `${JSON.stringify(k)}:${first(record[k])}`).join(",")}}`
    }
    // eslint-disable-next-line no-sparse-arrays
    const holes = [1, , 3]
    const values: unknown[] = [
      null,
      undefined,
      0,
      -0,
      1.5e300,
      NaN,
      "",
      'quote " backslash \\ newline \n tab \t \u0001 \u2028 кирилиця 😀 \ud800',
      true,
      [],
      {},
      [undefined, null, [], {}, [[1]]],
      holes,
      [() => 1, 2],
      { b: 1, a: 2, A: 3, _: 4, "10": 5, "9": 6, "": 7, "ключ": 8, "\u00e9": 9, "e\u0301": 10, "😀": 11, "\"q\"": 12 },
      { skip: undefined, keep: null, nested: { z: [{ y: undefined, x: "1" }], a: { "": "" } } },
      { fn: () => 1, date: new Date(0), big: { length: 2, 0: "a" } },
      // Many keys in reverse and scrambled order (stableJson sorts them itself, in place).
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${39 - i}`, i])),
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`${(i * 17) % 40}${i % 3 ? "x" : ""}`, i])),
    ]
    for (const value of values) expect(stableJson(value)).toBe(first(value))
  })

  it("ignores stock and sync_version but sees prices, images and sizes", () => {
    const base = fingerprint(mapCardToProduct(card(), ctx))
    const stockChanged = card({ sync_version: 8, sizes: card().sizes.map((s) => ({ ...s, stock: 0 })) })
    expect(fingerprint(mapCardToProduct(stockChanged, ctx))).toBe(base)
    expect(stockFingerprint(stockOf(stockChanged), "sloc_1")).not.toBe(stockFingerprint(stockOf(card()), "sloc_1"))
    const priceChanged = card({ sizes: [{ size: "42", stock: 3, price: "1287.01" }, card().sizes[1]] })
    expect(fingerprint(mapCardToProduct(priceChanged, ctx))).not.toBe(base)
    const imagesReordered = card({ images: [{ url: "http://img/1.png", is_main: true }, { url: "http://img/0.png", is_main: false }] })
    expect(fingerprint(mapCardToProduct(imagesReordered, ctx))).not.toBe(base)
    expect(fingerprint(mapCardToProduct(card(), { ...ctx, salesChannelId: "sc_2" }))).not.toBe(base)
  })
})

describe("prices fingerprint", () => {
  it("sees a change of the selling price under an unchanged crossed-out old_price", () => {
    const onSale = card({ sizes: [{ size: "42", stock: 3, price: "900.00", old_price: "1500.00" }, card().sizes[1]] })
    const cheaper = card({ sizes: [{ size: "42", stock: 3, price: "850.00", old_price: "1500.00" }, card().sizes[1]] })
    const a = mapCardToProduct(onSale, ctx)
    const b = mapCardToProduct(cheaper, ctx)
    // The base price (old_price) is the same; only the sale amount moved.
    expect(a.variants[0].amount).toBe(b.variants[0].amount)
    expect(fingerprint(b)).not.toBe(fingerprint(a))
    const { changedParts } = jest.requireActual("../fingerprint") as typeof import("../fingerprint")
    expect(changedParts(fingerprint(a), fingerprint(b))).toEqual({ fields: false, variants: false, prices: true })
  })
})

describe("changedParts", () => {
  const { changedParts } = jest.requireActual("../fingerprint") as typeof import("../fingerprint")
  it("tells a price-only change from a field or variant change", () => {
    const base = fingerprint(mapCardToProduct(card(), ctx))
    const priceOnly = fingerprint(mapCardToProduct(card({ sizes: [{ ...card().sizes[0], price: "1.00" }, card().sizes[1]] }), ctx))
    expect(changedParts(base, priceOnly)).toEqual({ fields: false, variants: false, prices: true })
    const renamed = fingerprint(mapCardToProduct(card({ name_uk: "Інша назва" }), ctx))
    expect(changedParts(base, renamed)).toEqual({ fields: true, variants: false, prices: false })
    const sized = fingerprint(mapCardToProduct(card({ sizes: [card().sizes[0]] }), ctx))
    expect(changedParts(base, sized)).toMatchObject({ variants: true })
    expect(changedParts(null, base)).toEqual({ fields: true, variants: true, prices: true })
    expect(changedParts("old-format-hash", base)).toEqual({ fields: true, variants: true, prices: true })
  })
})
