import { planProductRows, planProductRowsInSlices } from "../create-products"
import type { BulkProduct } from "../types"

const placement = { salesChannelId: "sc_1", stockLocationId: "sloc_1", shippingProfileId: "sp_1", currencyCode: "uah" }

function product(over: Partial<BulkProduct> = {}): BulkProduct {
  return {
    title: "Кросівки",
    handle: "krosivky",
    status: "published",
    images: ["https://i/1.jpg", "https://i/2.jpg"],
    categoryIds: ["pcat_1"],
    options: [{ title: "Розмір", values: ["41", "42"] }],
    variants: [
      { title: "41", sku: "A-41", options: { Розмір: "41" }, amount: "1300.50", stock: 2 },
      { title: "42", sku: "A-42", options: { Розмір: "42" }, amount: null, stock: 0 },
    ],
    ...over,
  }
}

describe("planProductRows", () => {
  it("plans one row per entity and link, with foreign keys pointing at the planned rows", () => {
    const { rows, created } = planProductRows([product()], placement)
    const [p] = rows.product
    expect(rows.product_variant.map((v) => [v.product_id, v.variant_rank])).toEqual([
      [p.id, 0],
      [p.id, 1],
    ])
    expect(rows.image.map((i) => [i.product_id, i.rank])).toEqual([
      [p.id, 0],
      [p.id, 1],
    ])
    expect(rows.product_option_value.map((v) => [v.option_id, v.value, v.rank])).toEqual([
      [rows.product_option[0].id, "41", null],
      [rows.product_option[0].id, "42", null],
    ])
    expect(rows.product_variant_option.map((j) => j.option_value_id)).toEqual(rows.product_option_value.map((v) => v.id))
    expect(rows.product_product_option_value.map((j) => j.product_product_option_id)).toEqual([
      rows.product_product_option[0].id,
      rows.product_product_option[0].id,
    ])
    expect(rows.product_category_product).toEqual([{ product_id: p.id, product_category_id: "pcat_1" }])
    expect(rows.product_sales_channel[0]).toMatchObject({ product_id: p.id, sales_channel_id: "sc_1" })
    expect(rows.product_shipping_profile[0]).toMatchObject({ product_id: p.id, shipping_profile_id: "sp_1" })
    // An unpriced variant gets an empty price set, as createProductsWorkflow with prices: [].
    expect(rows.price_set).toHaveLength(2)
    expect(rows.price).toEqual([
      expect.objectContaining({ price_set_id: rows.price_set[0].id, amount: "1300.5", raw_amount: '{"value":"1300.5","precision":20}' }),
    ])
    expect(rows.inventory_level.map((l) => [l.location_id, l.stocked_quantity])).toEqual([
      ["sloc_1", "2"],
      ["sloc_1", "0"],
    ])
    expect(created[0].variants.map((v) => v.sku)).toEqual(["A-41", "A-42"])
    expect(rows.product_variant_inventory_item.map((l) => l.inventory_item_id)).toEqual(created[0].variants.map((v) => v.inventoryItemId))
  })

  it("refuses a variant whose option value the product does not have", () => {
    const bad = product({ variants: [{ title: "43", sku: "A-43", options: { Розмір: "43" }, amount: "1", stock: 0 }] })
    expect(() => planProductRows([bad], placement)).toThrow("option Розмір has no value 43")
  })

  it("keeps money exact: no float rounding", () => {
    const { rows } = planProductRows(
      [product({ variants: [{ title: "41", sku: "A-41", options: { Розмір: "41" }, amount: "12345678901234.17", stock: 0 }] })],
      placement
    )
    expect(rows.price[0].amount).toBe("12345678901234.17")
  })
})

describe("planProductRowsInSlices", () => {
  /** The rows with every generated id replaced by its order of appearance (ids are random). */
  function normalized(planned: ReturnType<typeof planProductRows>) {
    const ids = new Map<string, string>()
    const text = JSON.stringify(planned).replace(/"([a-z]+_[0-9A-Z]{26})"/g, (_m, id: string) => {
      if (!ids.has(id)) ids.set(id, `id${ids.size}`)
      return `"${ids.get(id)}"`
    })
    return JSON.parse(text)
  }

  it("plans the same rows as planProductRows, with a turn of the event loop between slices", async () => {
    const products = Array.from({ length: 7 }, (_, i) => product({ handle: `p-${i}`, title: `P ${i}` }))
    let turns = 0
    const sliced = await planProductRowsInSlices(
      products,
      placement,
      async () => {
        turns++
      },
      3
    )
    expect(normalized(sliced)).toEqual(normalized(planProductRows(products, placement)))
    expect(sliced.created).toHaveLength(7)
    // 7 products in slices of 3: two turns between three slices.
    expect(turns).toBe(2)
  })
})
