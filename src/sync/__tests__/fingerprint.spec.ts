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
      { b: 1, a: 2, A: 3, _: 4, "10": 5, "9": 6, "": 7, ключ: 8, "\u00e9": 9, "e\u0301": 10, "😀": 11, '"q"': 12 },
      { skip: undefined, keep: null, nested: { z: [{ y: undefined, x: "1" }], a: { "": "" } } },
      { fn: () => 1, date: new Date(0), big: { length: 2, 0: "a" } },
      // Many keys in reverse and scrambled order (stableJson sorts them itself, in place).
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${39 - i}`, i])),
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`${(i * 17) % 40}${i % 3 ? "x" : ""}`, i])),
    ]
    for (const value of values) expect(stableJson(value)).toBe(first(value))
    // Inside otherwise plain data, what JSON.stringify writes differently from the first version
    // (those values are written piece by piece), and what it writes the same.
    const inside: unknown[] = [
      { b: [undefined, null], a: { x: undefined, y: "" } },
      { b: holes, a: 1 },
      { b: [() => 1], a: 1 },
      { b: { fn: () => 1 }, a: 1 },
      { b: new Date(0), a: [new Date(1)] },
      { b: Object.assign(Object.create(null), { y: 1, x: { z: 2 } }) },
      { b: Object.assign(Object.create({ inherited: 1 }), { x: 1 }) },
      { b: { toJSON: () => "replaced" }, a: { toJSON: "kept" } },
      { b: { "10": 1, "9": 2, a: 3 }, a: { "4294967295": 1, "01": 2, "1": 3 } },
      { b: JSON.parse('{"__proto__": {"x": 1}, "a": 2}') },
      { b: Symbol("s"), a: [Symbol("s")] },
      { b: new String("boxed"), a: new Number(1), c: new Map([[1, 2]]) },
      { b: Object.assign([2, 1], { extra: 3 }) },
    ]
    for (const value of inside) expect(stableJson(value)).toBe(first(value))
    // Random nested data, keys in random order.
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    const leaf = () => [null, undefined, 0, 1.25, "s", "ключ", true, ""][Math.floor(random() * 8)]
    const grow = (depth: number): unknown => {
      const r = random()
      if (depth === 0 || r < 0.3) return leaf()
      if (r < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => grow(depth - 1))
      return Object.fromEntries(["d", "a", "c", "b", "é", "10", "9"].filter(() => random() < (depth > 2 ? 0.5 : 0.3)).map((k) => [k, grow(depth - 1)]))
    }
    for (let i = 0; i < 2000; i++) {
      const value = grow(4)
      expect(stableJson(value)).toBe(first(value))
    }
  })

  it("ignores stock and sync_version but sees prices, images and sizes", () => {
    const base = fingerprint(mapCardToProduct(card(), ctx))
    const stockChanged = card({ sync_version: 8, sizes: card().sizes.map((s) => ({ ...s, stock: 0 })) })
    expect(fingerprint(mapCardToProduct(stockChanged, ctx))).toBe(base)
    expect(stockFingerprint(stockOf(stockChanged), "sloc_1")).not.toBe(stockFingerprint(stockOf(card()), "sloc_1"))
    const priceChanged = card({ sizes: [{ size: "42", stock: 3, price: "1287.01" }, card().sizes[1]] })
    expect(fingerprint(mapCardToProduct(priceChanged, ctx))).not.toBe(base)
    const imagesReordered = card({
      images: [
        { url: "http://img/1.png", is_main: true },
        { url: "http://img/0.png", is_main: false },
      ],
    })
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
