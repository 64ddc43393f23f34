import { fingerprint, stableJson, stockFingerprint } from "../fingerprint"
import { mapCardToProduct, stockOf } from "../map-card"
import { card } from "./card-fixtures"

const ctx = { primaryLanguage: "uk" as const, salesChannelId: "sc_1" }

describe("fingerprint", () => {
  it("is stable under key order", () => {
    expect(stableJson({ b: 1, a: [{ y: 2, x: 1 }] })).toBe(stableJson({ a: [{ x: 1, y: 2 }], b: 1 }))
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
