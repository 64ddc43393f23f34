// Writes a page's changed products in bulk: only the parts whose fingerprint changed
// (product fields and images; variants, including sizes gained or lost; prices), and
// always the stock levels. A price-only change touches price sets and levels only.
// The product map's variant ids are first checked against the shop's live variants
// (reconcileWithShop): a size's variant is the live one with its option value, so a
// deleted variant is never addressed and one a crashed write made is adopted.
import { ProductWorkflowEvents } from "@medusajs/framework/utils"
import { createWorkflow, parallelize, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { emitEventStep } from "@medusajs/medusa/core-flows"
import type { CreatedProduct, Placement, ProductToUpdate } from "./page-input"
import { SYNC_WRITE_MARK } from "../field-locks"
import { addVariantsStep } from "./steps/add-variants-step"
import { ensureSalesChannelLinksStep } from "./steps/ensure-sales-channel-links-step"
import { createVariantInventoryStep } from "./steps/create-variant-inventory-step"
import { createVariantPricesStep } from "./steps/create-variant-prices-step"
import { setStockLevelsStep } from "./steps/set-stock-levels-step"
import { updateProductFieldsStep } from "./steps/update-product-fields-step"
import { updateVariantsStep } from "./steps/update-variants-step"
import { updatedProductIds, updateSizesFirst } from "./update-sizes-first"

export interface UpdateCatalogProductsInput {
  products: ProductToUpdate[]
  placement: Placement
}

export const updateCatalogProductsWorkflow = createWorkflow("catalog-sync-update-catalog-products", (input: UpdateCatalogProductsInput) => {
  // The map checked against the live variants, then the option words, lost, relabeled and pruned sizes.
  const { products, changes } = updateSizesFirst(input)

  const addedIds = addVariantsStep(changes.added)
  // New variants, and kept ones a crash left without inventory, get prices / inventory.
  const addedRows = transform({ changes, addedIds }, ({ changes, addedIds }) => ({
    prices: changes.added.map((a, i) => ({ variantId: addedIds[i], amount: a.amount })),
    stock: [
      ...changes.added.map((a, i) => ({ variantId: addedIds[i], sku: a.sku, title: a.title, quantity: a.quantity })),
      ...changes.keptWithoutInventory.map((a) => ({ variantId: a.variantId!, sku: a.sku, title: a.title, quantity: a.quantity })),
    ],
  }))
  createVariantPricesStep(addedRows.prices).config({ name: "catalog-sync-added-variant-prices" })
  const addedItemIds = createVariantInventoryStep(
    transform({ addedRows, input }, ({ addedRows, input }) => ({
      variants: addedRows.stock,
      stockLocationId: input.placement.stockLocationId,
    }))
  ).config({ name: "catalog-sync-added-variant-inventory" })

  // Product fields, kept variants with their prices, stock levels and the sales channel
  // link touch different records: written concurrently.
  parallelize(
    updateProductFieldsStep(
      transform({ products, changes }, ({ products, changes }) => {
        const wanted = new Set(changes.fieldsChanged)
        return products.filter((p) => wanted.has(p.productId))
      })
    ),
    updateVariantsStep(transform({ changes }, ({ changes }) => ({ fields: changes.keptFields, prices: changes.keptPrices }))),
    setStockLevelsStep(
      transform({ changes, input }, ({ changes, input }) => ({
        levels: changes.keptLevels,
        stockLocationId: input.placement.stockLocationId,
      }))
    ),
    ensureSalesChannelLinksStep(
      transform({ input, changes }, ({ input, changes }) => ({
        productIds: changes.fieldsChanged,
        salesChannelId: input.placement.salesChannelId,
        shippingProfileId: input.placement.shippingProfileId,
      }))
    )
  )

  const result = transform({ products, changes, addedIds, addedItemIds }, ({ products, changes, addedIds, addedItemIds }): CreatedProduct[] =>
    // Inventory items were made for the added variants first, then for the kept ones without one.
    updatedProductIds(
      products,
      changes,
      { variantIds: addedIds, itemIds: addedItemIds.slice(0, changes.added.length) },
      addedItemIds.slice(changes.added.length)
    )
  )
  // The event Medusa's updateProductsWorkflow emits, for the products whose fields were written
  // (a size, price or stock change emits its variants' and levels' events alone, as the shop's own
  // variant and stock edits do), marked as the sync's (not an admin edit).
  emitEventStep({
    eventName: ProductWorkflowEvents.UPDATED,
    data: transform({ changes }, ({ changes }) => changes.fieldsChanged.map((id) => ({ id, [SYNC_WRITE_MARK]: true }))),
  })
  return new WorkflowResponse(result)
})
