// Run inside the demo app with `medusa exec`: one column added to the product column description
// (`hs_code`, a column of Medusa's product table the sync does not write) before the plugin's
// writers load, as if src/sync/product-columns.ts listed it; then catalog products created and
// updated through each write path (the bulk writer, and Medusa's core-flows workflows), and the
// column read back from Medusa's product table by SQL. Usage: medusa exec added-column.exec.ts <out.json>
import fs from "node:fs"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStockLocationsWorkflow } from "@medusajs/medusa/core-flows"

const HS_CODE = { name: "hs_code", type: "text" }

/** The description with the column added, in this process's module cache: done before any writer is loaded. */
function addColumnToDescription(): void {
  const file = require.resolve("../../../src/sync/product-columns")
  const actual = require(file)
  require.cache[file]!.exports = { ...actual, PRODUCT_COLUMN_LIST: Object.freeze([...actual.PRODUCT_COLUMN_LIST, HS_CODE]) }
}

export default async function addedColumn({ container, args }: { container: any; args: string[] }) {
  addColumnToDescription()
  const { createInOneTransaction } = require("../../../src/workflows/page/new-products-in-bulk")
  const { writeFieldsInBulk } = require("../../../src/workflows/page/write-fields-in-bulk")
  const { createProductsThroughCoreFlowsWorkflow } = require("../../../src/workflows/create-products-through-core-flows")
  const { updateProductsThroughCoreFlowsWorkflow } = require("../../../src/workflows/update-products-through-core-flows")
  const { mapCardToProduct, stockOf } = require("../../../src/sync/map-card")
  const { card } = require("../../../src/sync/__tests__/card-fixtures")
  const pg = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)

  const [salesChannel] = await container.resolve(Modules.SALES_CHANNEL).listSalesChannels({}, { take: 1 })
  const [shippingProfile] = await container.resolve(Modules.FULFILLMENT).listShippingProfiles({}, { take: 1 })
  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({ input: { locations: [{ name: "Склад" }] } })
  const placement = { salesChannelId: salesChannel.id, stockLocationId: location.id, shippingProfileId: shippingProfile?.id ?? null }

  /** A catalog product as the page writes it, with the new column's value as its mapping line would set it. */
  const toCreate = (catalogId: string, hsCode: string | null) => {
    const c = card({ id: catalogId, sku: `HS-${catalogId}` })
    return { catalogId, input: { ...mapCardToProduct(c, { primaryLanguage: "uk", salesChannelId: salesChannel.id }), hs_code: hsCode }, stock: stockOf(c) }
  }
  /** Its fields-only update (sizes and prices as written). */
  const toUpdate = (created: any, hsCode: string | null) => ({
    ...toCreate(created.catalogId, hsCode),
    productId: created.productId,
    variantIds: created.variantIds,
    inventoryItemIds: created.inventoryItemIds,
    partsToWrite: { fields: true, variants: false, prices: false },
  })
  const hsCodes = async (ids: string[]) => {
    const { rows } = await pg.raw(`select id, hs_code from product where id = any(?)`, [ids])
    return ids.map((id) => rows.find((r: any) => r.id === id)?.hs_code)
  }

  const out: Record<string, unknown> = {}
  const bulk = await createInOneTransaction(container, [toCreate("9101", "6403.99")], placement)
  if (!("created" in bulk)) throw bulk.rolledBack
  const [bulkCreated] = bulk.created
  const {
    result: [flowCreated],
  } = await createProductsThroughCoreFlowsWorkflow(container).run({ input: { products: [toCreate("9102", "6403.99")], placement } })
  const ids = [bulkCreated.productId, flowCreated.productId]
  out.created = await hsCodes(ids)

  const fast = await writeFieldsInBulk(container, [toUpdate(bulkCreated, "6404.11")], placement)
  out.bulkUpdate = { written: fast.written.length, rest: fast.rest.length }
  await updateProductsThroughCoreFlowsWorkflow(container).run({ input: { products: [toUpdate(flowCreated, "6404.11")], placement } })
  out.updated = await hsCodes(ids)
  fs.writeFileSync(args[0], JSON.stringify(out))
}
