// Writes a page's changed products in bulk: only the parts whose fingerprint changed
// (product fields and images; variants, including sizes gained or lost; prices), and
// always the stock levels. A price-only change touches price sets and levels only.
// The product map's variant ids are first checked against the shop's live variants
// (reconcileWithShop): a size's variant is the live one with its option value, so a
// deleted variant is never addressed and one a crashed write made is adopted.
import { ProductWorkflowEvents } from "@medusajs/framework/utils"
import { createWorkflow, parallelize, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { deleteProductVariantsWorkflow, emitEventStep } from "@medusajs/medusa/core-flows"
import type { CreatedProduct, Placement, ProductToUpdate } from "./page-input"
import { SYNC_WRITE_MARK } from "../field-locks"
import { reconcileWithShop, variantChanges } from "../sync/variant-changes"
import { readLiveVariantsStep } from "./steps/read-live-variants-step"
import { keepReservedSizesStep } from "./steps/keep-reserved-sizes-step"
import { pruneOptionValuesStep } from "./steps/prune-option-values-step"
import { relabelVariantsStep } from "./steps/relabel-variants-step"
import { addVariantsStep } from "./steps/add-variants-step"
import { ensureSalesChannelLinksStep } from "./steps/ensure-sales-channel-links-step"
import { createVariantInventoryStep } from "./steps/create-variant-inventory-step"
import { createVariantPricesStep } from "./steps/create-variant-prices-step"
import { setStockLevelsStep } from "./steps/set-stock-levels-step"
import { sizeLabelsUpdates, syncSizeLabelsStep } from "./steps/size-labels-step"
import { updateProductFieldsStep } from "./steps/update-product-fields-step"
import { updateVariantsStep } from "./steps/update-variants-step"

export interface UpdateCatalogProductsInput {
  products: ProductToUpdate[]
  placement: Placement
}

export const updateCatalogProductsWorkflow = createWorkflow(
  "catalog-sync-update-catalog-products",
  (input: UpdateCatalogProductsInput) => {
    const live = readLiveVariantsStep(transform({ input }, ({ input }) => input.products.map((p) => p.productId)))
    const products = transform({ input, live }, ({ input, live }) => input.products.map((p) => reconcileWithShop(p, live[p.productId] ?? [])))
    const changes = transform({ products }, ({ products }) => variantChanges(products))

    // Option words first: a one-size value renamed in place is not pruned as stale below, and
    // the sizes added next join the option under its current title.
    syncSizeLabelsStep(transform({ input, changes }, ({ input, changes }) => sizeLabelsUpdates(input.products, changes.fieldsChanged)))

    // Lost sizes an open order reserved stay for it, off sale (deleteProductVariantsWorkflow would refuse them).
    const lost = keepReservedSizesStep(transform({ changes }, ({ changes }) => changes.removedVariantIds))
    when({ lost }, ({ lost }) => lost.removable.length > 0).then(() => {
      deleteProductVariantsWorkflow.runAsStep({ input: transform({ lost }, ({ lost }) => ({ ids: lost.removable })) })
    })
    // A kept variant whose size value was renamed in the admin goes back to the catalog's value
    // first, so the renamed value is unused when it is pruned.
    relabelVariantsStep(transform({ changes }, ({ changes }) => changes.relabeled))
    pruneOptionValuesStep(transform({ changes }, ({ changes }) => changes.optionValues))

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
      products.map((p) => {
        const wanted = new Set(p.input.variants.map((v) => v.sizeKey))
        const variantIds: Record<string, string> = {}
        const inventoryItemIds: Record<string, string> = {}
        for (const [k, v] of Object.entries(p.variantIds)) if (wanted.has(k)) variantIds[k] = v
        for (const [k, v] of Object.entries(p.inventoryItemIds)) if (wanted.has(k)) inventoryItemIds[k] = v
        changes.added.forEach((a, i) => {
          if (a.catalogId !== p.catalogId) return
          variantIds[a.sizeKey] = addedIds[i]
          inventoryItemIds[a.sizeKey] = addedItemIds[i]
        })
        changes.keptWithoutInventory.forEach((a, i) => {
          if (a.catalogId === p.catalogId) inventoryItemIds[a.sizeKey] = addedItemIds[changes.added.length + i]
        })
        return { catalogId: p.catalogId, productId: p.productId, variantIds, inventoryItemIds }
      })
    )
    // The same event Medusa's updateProductsWorkflow emits, marked as the sync's (not an admin edit).
    emitEventStep({
      eventName: ProductWorkflowEvents.UPDATED,
      data: transform({ input }, ({ input }) => input.products.map((p) => ({ id: p.productId, [SYNC_WRITE_MARK]: true }))),
    })
    return new WorkflowResponse(result)
  }
)
