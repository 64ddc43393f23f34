import { isOwnProduct, mapCardToProduct, stockOf, variantSku } from "../map-card"
import { toAmount, sellingAmount } from "../money"
import { ONE_SIZE, DEFAULT_SIZE_KEY } from "../product-input"
import { card } from "./engine-fixtures"

const ctx = { primaryLanguage: "uk" as const, salesChannelId: "sc_1" }

describe("mapCardToProduct", () => {
  it("maps a card to a product with a Size option, a variant per size and exact uah amounts", () => {
    const input = mapCardToProduct(card(), ctx)
    expect(input.external_id).toBe("9223372036854775807")
    expect(input.title).toBe("Кросівки")
    expect(input.status).toBe("published")
    expect(input.variants.map((v) => [v.sizeKey, v.sku, v.optionValue, v.amount])).toEqual([
      ["42", "UA-000123-42#9223372036854775807", "42", "1287.00"],
      ["43", "UA-000123-43#9223372036854775807", "43", "1300.10"],
    ])
    expect(input.salesChannelId).toBe("sc_1")
  })

  it("puts the main image first and makes it the thumbnail", () => {
    const input = mapCardToProduct(card(), ctx)
    expect(input.images).toEqual([{ url: "http://img/0.png" }, { url: "http://img/1.png" }])
    expect(input.thumbnail).toBe("http://img/0.png")
  })

  it("gives a card without sizes one default variant priced from the card", () => {
    const input = mapCardToProduct(card({ sizes: [] }), ctx)
    expect(input.variants).toHaveLength(1)
    expect(input.variants[0]).toMatchObject({ sizeKey: DEFAULT_SIZE_KEY, optionValue: ONE_SIZE, sku: "UA-000123#9223372036854775807", amount: "1300.00" })
    expect(stockOf(card({ sizes: [] }))).toEqual({ [DEFAULT_SIZE_KEY]: 5 })
  })

  it("uses cost_price when no markup was sent, and keeps a product without any price as draft", () => {
    const noMarkup = card({ price: undefined, sizes: [{ size: "42", stock: 1, cost_price: "990.00" }] })
    expect(mapCardToProduct(noMarkup, ctx).variants[0].amount).toBe("990.00")
    const unpriced = card({ cost_price: null, price: null, sizes: [{ size: "42", stock: 1, cost_price: null, price: null }] })
    const input = mapCardToProduct(unpriced, ctx)
    expect(input.status).toBe("draft")
    expect(input.variants[0].amount).toBeNull()
  })

  it("drops repeated sizes and sets stock to 0 when the card is out of stock", () => {
    const c = card({ in_stock: false, sizes: [{ size: "42", stock: 3, price: "1.00" }, { size: "42", stock: 9, price: "2.00" }] })
    expect(mapCardToProduct(c, ctx).variants).toHaveLength(1)
    expect(stockOf(c)).toEqual({ "42": 0 })
  })
})

describe("variant SKUs", () => {
  it("never collide between cards: a shared SKU, or A-1 + size 2 against A + size 1-2", () => {
    const a = card({ id: "5", sku: "A-1" })
    const b = card({ id: "6", sku: "A" })
    expect(variantSku(a, "2")).not.toBe(variantSku(b, "1-2"))
    const twin = card({ id: "7", sku: "A-1" })
    expect(variantSku(a, "2")).not.toBe(variantSku(twin, "2"))
    expect(variantSku(a, "")).not.toBe(variantSku(twin, ""))
    expect(variantSku(a, "2")).toBe("A-1-2#5")
  })
})

describe("own products", () => {
  it("marks its products, and tells them from another import's product with the same external_id", () => {
    const input = mapCardToProduct(card(), ctx)
    expect(isOwnProduct({ external_id: input.external_id, metadata: input.metadata })).toBe(true)
    expect(isOwnProduct({ external_id: input.external_id, metadata: null })).toBe(false)
    expect(isOwnProduct({ external_id: input.external_id, metadata: { catalog_id: input.external_id } })).toBe(false)
    expect(isOwnProduct({ external_id: "1", metadata: { ...input.metadata } })).toBe(false)
  })
})

describe("money", () => {
  it("keeps decimal strings exact, never through a float", () => {
    expect(toAmount("0.1")).toBe("0.10")
    expect(toAmount("123456789012345678.99")).toBe("123456789012345678.99")
    expect(toAmount("-1")).toBeNull()
    expect(toAmount("abc")).toBeNull()
    expect(sellingAmount({ price: null, cost_price: "5.00" })).toBeNull()
    expect(sellingAmount({ cost_price: "5.00" })).toBe("5.00")
  })
})
