import Decimal from "decimal.js"
import { isOwnProduct, mapCardToProduct, stockOf, variantSku, variantSkuCandidates } from "../map-card"
import { toAmount, sellingAmount } from "../money"
import { DEFAULT_SIZE_KEY, productMetadata } from "../catalog-product"
import { resolveVocabulary } from "../shop-vocabulary"
import { chooseVariantSkus } from "../variant-skus"
import { card } from "./card-fixtures"

const ctx = { primaryLanguage: "uk" as const, salesChannelId: "sc_1" }

describe("mapCardToProduct", () => {
  it("maps a card to a product with a size option in the shop's language, a variant per size and exact uah amounts", () => {
    const input = mapCardToProduct(card(), ctx)
    expect(input.external_id).toBe("9223372036854775807")
    expect(input.title).toBe("Кросівки")
    expect(input.status).toBe("published")
    expect(input.optionTitle).toBe("Розмір")
    expect(input.variants.map((v) => [v.sizeKey, v.sku, v.optionValue, v.amount])).toEqual([
      ["42", "UA-000123-42", "42", "1287.00"],
      ["43", "UA-000123-43", "43", "1300.10"],
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
    expect(input.variants[0]).toMatchObject({
      sizeKey: DEFAULT_SIZE_KEY,
      optionValue: "Один розмір",
      title: "Один розмір",
      sku: "UA-000123",
      amount: "1300.00",
    })
    expect(stockOf(card({ sizes: [] }))).toEqual({ [DEFAULT_SIZE_KEY]: 5 })
  })

  it("names the size option in the primary language, keeps the other in metadata, and takes labels from the options", () => {
    const ru = mapCardToProduct(card({ sizes: [] }), { ...ctx, primaryLanguage: "ru" })
    expect(ru.optionTitle).toBe("Размер")
    expect(ru.variants[0].optionValue).toBe("Один размер")
    expect(ru.extraMetadata.size_labels).toEqual({ uk: { option: "Розмір", one_size: "Один розмір" } })
    const uk = mapCardToProduct(card(), ctx)
    expect(uk.extraMetadata.size_labels).toEqual({ ru: { option: "Размер", one_size: "Один размер" } })
    const custom = mapCardToProduct(card({ sizes: [] }), { ...ctx, vocabulary: resolveVocabulary({ uk: { option: "Розмір взуття", oneSize: " " } }) })
    expect(custom.optionTitle).toBe("Розмір взуття")
    expect(custom.variants[0].optionValue).toBe("Один розмір")
  })

  it("orders variants by size, whatever the catalog order", () => {
    const sizes = ["44", "40", "42", "41"].map((size) => ({ size, stock: 1, price: "1.00" }))
    expect(mapCardToProduct(card({ sizes }), ctx).variants.map((v) => v.sizeKey)).toEqual(["40", "41", "42", "44"])
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
    const c = card({
      in_stock: false,
      sizes: [
        { size: "42", stock: 3, price: "1.00" },
        { size: "42", stock: 9, price: "2.00" },
      ],
    })
    expect(mapCardToProduct(c, ctx).variants).toHaveLength(1)
    expect(stockOf(c)).toEqual({ "42": 0 })
  })
})

describe("variant SKUs", () => {
  it("are <sku>-<size>, or <sku> without sizes; the catalog id only when the plain one is taken", () => {
    const a = card({ id: "5", sku: "A-1" })
    expect(variantSku(a, "2")).toBe("A-1-2")
    expect(variantSku(a, "")).toBe("A-1")
    expect(variantSku(a, "2", true)).toBe("A-1-2#5")
    expect(variantSkuCandidates(a, "")).toEqual(["A-1", "A-1#5"])
  })

  it("never collide between cards: a shared SKU, or A-1 + size 2 against A + size 1-2", () => {
    const a = card({ id: "5", sku: "A-1" })
    const b = card({ id: "6", sku: "A" })
    const twin = card({ id: "7", sku: "A-1" })
    const requests = [twin, b, a].map((c) => ({
      catalogId: c.id,
      card: c,
      productId: null,
      variants: [{ sizeKey: c.id === "6" ? "1-2" : "2", currentSku: null }],
    }))
    const choice = chooseVariantSkus(requests, new Map())
    // The smallest catalog id gets the plain SKU; the others carry their id.
    expect(choice.get("5")!.get("2")).toBe("A-1-2")
    expect(choice.get("6")!.get("1-2")).toBe("A-1-2#6")
    expect(choice.get("7")!.get("2")).toBe("A-1-2#7")
  })

  it("adds the id when another product holds the SKU, never for the product's own variant, and keeps a plain SKU it has", () => {
    const c = card({ id: "9", sku: "X" })
    const req = (productId: string | null, currentSku: string | null) => [{ catalogId: "9", card: c, productId, variants: [{ sizeKey: "40", currentSku }] }]
    expect(
      chooseVariantSkus(req(null, null), new Map([["X-40", "prod_other"]]))
        .get("9")!
        .get("40")
    ).toBe("X-40#9")
    expect(
      chooseVariantSkus(req("prod_9", "X-40"), new Map([["X-40", "prod_9"]]))
        .get("9")!
        .get("40")
    ).toBe("X-40")
    // Made with the old format (always suffixed): moves to the plain SKU when it is free...
    expect(
      chooseVariantSkus(req("prod_9", "X-40#9"), new Map([["X-40#9", "prod_9"]]))
        .get("9")!
        .get("40")
    ).toBe("X-40")
    // ...and keeps the suffix while another product holds the plain one.
    expect(
      chooseVariantSkus(
        req("prod_9", "X-40#9"),
        new Map([
          ["X-40", "prod_other"],
          ["X-40#9", "prod_9"],
        ])
      )
        .get("9")!
        .get("40")
    ).toBe("X-40#9")
  })

  it("lets a variant keep its plain SKU against a competitor with a smaller id on the same page", () => {
    const older = card({ id: "100", sku: "S" })
    const newcomer = card({ id: "2", sku: "S" })
    const choice = chooseVariantSkus(
      [
        { catalogId: "2", card: newcomer, productId: null, variants: [{ sizeKey: "", currentSku: null }] },
        { catalogId: "100", card: older, productId: "prod_100", variants: [{ sizeKey: "", currentSku: "S" }] },
      ],
      new Map([["S", "prod_100"]])
    )
    expect(choice.get("100")!.get("")).toBe("S")
    expect(choice.get("2")!.get("")).toBe("S#2")
  })
})

describe("own products", () => {
  it("marks its products, and tells them from another import's product with the same external_id", () => {
    const input = mapCardToProduct(card(), ctx)
    expect(isOwnProduct({ external_id: input.external_id, metadata: productMetadata(input) })).toBe(true)
    expect(isOwnProduct({ external_id: input.external_id, metadata: null })).toBe(false)
    expect(isOwnProduct({ external_id: input.external_id, metadata: { catalog_id: input.external_id } })).toBe(false)
    expect(isOwnProduct({ external_id: "1", metadata: { ...productMetadata(input) } })).toBe(false)
  })
})

describe("money", () => {
  it("keeps decimal strings exact, never through a float", () => {
    expect(toAmount("0.1")).toBe("0.10")
    expect(toAmount("123456789012345678.99")).toBe("123456789012345678.99")
    expect(toAmount("-1")).toBeNull()
    expect(toAmount("-0.01")).toBeNull()
    expect(["-0.00", "-0", "-0.0", "-00.000"].map(toAmount)).toEqual(["0.00", "0.00", "0.00", "0.00"])
    expect(toAmount("abc")).toBeNull()
    expect(sellingAmount({ price: null, cost_price: "5.00" })).toBeNull()
    expect(sellingAmount({ cost_price: "5.00" })).toBe("5.00")
  })

  it("gives what decimal.js rounds to cents, for text in cents already and for every other spelling", () => {
    const byDecimal = (text: string) => {
      const d = new Decimal(text.trim())
      // A signed zero is zero (decimal.js calls it negative).
      return d.isZero() ? "0.00" : d.isNegative() ? null : d.toFixed(2, Decimal.ROUND_HALF_UP)
    }
    const inputs = [
      "0.00",
      "00.10",
      "0.10",
      " 5.00 ",
      "5.0",
      "5.000",
      "5.005",
      "-0.00",
      "-0",
      "-0.0",
      "-1.00",
      "1e2",
      "10.99",
      "010.99",
      "1287.5",
      "+3.10",
      "3.1e1",
    ]
    for (const text of inputs) expect([text, toAmount(text)]).toEqual([text, byDecimal(text)])
    let seed = 11
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let i = 0; i < 5_000; i++) {
      const text = `${next() < 0.1 ? "0" : ""}${Math.floor(next() * 10 ** Math.floor(next() * 9))}.${String(Math.floor(next() * 1000)).slice(0, 1 + Math.floor(next() * 3))}`
      expect([text, toAmount(text)]).toEqual([text, byDecimal(text)])
    }
  })
})
