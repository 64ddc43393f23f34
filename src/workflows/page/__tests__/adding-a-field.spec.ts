// A catalog field added the way docs/adding-a-field.md says: one entry in the column description
// (src/sync/product-columns.ts) and its value on the mapped product. Here the description is
// extended by the test itself with `hs_code` (a column of Medusa's product table the sync does
// not write), and the product builders the page really uses are loaded over it: the new column
// must reach the bulk insert's product row, the bulk update's statement, the product module's
// input on the workflow path (create and update) and the fingerprint, with nothing else edited.
import type { ProductColumn } from "../../../sync/product-columns"
import { card } from "../../../sync/__tests__/card-fixtures"

const HS_CODE: ProductColumn = { name: "hs_code", type: "text" }

/** The builders a page writes a product with, loaded over a description with the given columns added. */
function buildersWith(added: ProductColumn[]) {
  let builders: any
  jest.isolateModules(() => {
    jest.doMock("../../../sync/product-columns", () => {
      const actual = jest.requireActual("../../../sync/product-columns")
      return { ...actual, PRODUCT_COLUMN_LIST: Object.freeze([...actual.PRODUCT_COLUMN_LIST, ...added]) }
    })
    builders = {
      ...require("../../../sync/map-card"),
      ...require("../../../sync/fingerprint"),
      ...require("../../../bulk-write/create-products"),
      ...require("../../../bulk-write/update-products"),
      ...require("../../page-input"),
      ...require("../bulk-new-products"),
      ...require("../fields-only-changes"),
    }
  })
  return builders
}

const ctx = { primaryLanguage: "uk" as const, salesChannelId: "sc_1" }
const placement = { salesChannelId: "sc_1", stockLocationId: "sloc_1", shippingProfileId: null }

/** The mapped product with the new field as its mapping line would set it. */
function mapped(b: any, hsCode: string | null) {
  const c = card()
  return { c, input: { ...b.mapCardToProduct(c, ctx), hs_code: hsCode } }
}

function toUpdate(b: any, hsCode: string | null) {
  const { c, input } = mapped(b, hsCode)
  return { catalogId: input.catalogId, productId: "prod_1", input, stock: b.stockOf(c), variantIds: {}, inventoryItemIds: {} }
}

describe("a column added to the description alone", () => {
  const extended = buildersWith([HS_CODE])
  const plain = buildersWith([])

  it("is in the bulk insert's product row, NULL when the product has no value", () => {
    for (const value of ["6403.99", null]) {
      const { c, input } = mapped(extended, value)
      const bulk = extended.bulkProductOf({ catalogId: input.catalogId, input, stock: extended.stockOf(c) })
      const { rows } = extended.planProductRows([bulk], extended.bulkPlacementOf(placement))
      expect(rows.product[0]).toHaveProperty("hs_code", value)
    }
    // Control: without the description's entry the same product's row has no such column.
    const { c, input } = mapped(plain, "6403.99")
    const { rows } = plain.planProductRows(
      [plain.bulkProductOf({ catalogId: input.catalogId, input, stock: plain.stockOf(c) })],
      plain.bulkPlacementOf(placement)
    )
    expect(rows.product[0]).not.toHaveProperty("hs_code")
  })

  it("is set by the bulk update as text, with the product's value", () => {
    const update = extended.productFieldsUpdate(toUpdate(extended, "6403.99"))
    expect(update.columns).toHaveProperty("hs_code", "6403.99")
    const [statement] = extended.productUpdateStatements([update], new Map())
    expect(statement.sql).toContain("hs_code = v.hs_code")
    const columns = statement.sql.match(/as v\(([^)]*)\)/)![1].split(", ")
    const casts = statement.sql.match(/values \(([^)]*)\)/)![1].split(", ")
    expect(casts[columns.indexOf("hs_code")]).toBe("?::text")
    expect(statement.bindings[columns.indexOf("hs_code")]).toBe("6403.99")
    // Control: the update the plain description builds leaves hs_code alone.
    const [before] = plain.productUpdateStatements([plain.productFieldsUpdate(toUpdate(plain, "6403.99"))], new Map())
    expect(before.sql).not.toContain("hs_code")
  })

  it("is in the product module's input on the workflow path: createProductsWorkflow's and the update's", () => {
    const { input } = mapped(extended, "6403.99")
    expect(extended.productToCreateInput(input)).toHaveProperty("hs_code", "6403.99")
    expect(extended.productFields(input, [])).toHaveProperty("hs_code", "6403.99")
    expect(plain.productToCreateInput(mapped(plain, "6403.99").input)).not.toHaveProperty("hs_code")
  })

  it("moves the fields part of the fingerprint when it has a value, and leaves stored fingerprints as they are when it has none", () => {
    const none = extended.fingerprint(mapped(extended, null).input)
    // A product without a value hashes as before the column existed: nothing to rewrite.
    expect(none).toBe(plain.fingerprint(mapped(plain, null).input))
    const some = extended.fingerprint(mapped(extended, "6403.99").input)
    expect(extended.changedParts(none, some)).toEqual({ fields: true, variants: false, prices: false })
    const other = extended.fingerprint(mapped(extended, "6404.11").input)
    expect(extended.changedParts(some, other)).toEqual({ fields: true, variants: false, prices: false })
    // Control: the plain description does not hash it.
    expect(plain.fingerprint(mapped(plain, "6403.99").input)).toBe(none)
  })
})
