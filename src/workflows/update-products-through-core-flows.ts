// The workflows write path's updates, planned as the bulk path plans them (the product map checked
// against the shop's live variants, src/sync/variant-changes.ts), written through Medusa's own
// workflows: updateProductsWorkflow for the product fields (hook productsUpdated),
// deleteProductVariantsWorkflow for lost sizes (productVariantsDeleted),
// createProductVariantsWorkflow for new ones (productVariantsCreated; it makes their inventory
// items), updateProductVariantsWorkflow for kept variants' fields and prices
// (productVariantsUpdated), batchInventoryItemLevelsWorkflow for the stock levels. Every write is
// a value set again when replayed, so a replay of the page changes nothing more.
import { createWorkflow, parallelize, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import {
  batchInventoryItemLevelsWorkflow,
  createProductVariantsWorkflow,
  updateProductsWorkflow,
  updateProductVariantsWorkflow,
} from "@medusajs/medusa/core-flows"
import { productFields, type CreatedProduct, type Placement, type ProductToUpdate } from "./page-input"
import { createVariantInventoryStep } from "./steps/create-variant-inventory-step"
import { pricesOf } from "./steps/variant-prices"
import { ensureSalesChannelLinksStep } from "./steps/ensure-sales-channel-links-step"
import { addSizeValuesStep } from "./steps/add-size-values-step"
import { adoptableInventoryItemsStep } from "./steps/adoptable-inventory-items-step"
import { splitStockLevelsStep } from "./steps/split-stock-levels-step"
import { variantInventoryItemsStep } from "./steps/variant-inventory-items-step"
import { updatedProductIds, updateSizesFirst } from "./update-sizes-first"

export const updateProductsThroughCoreFlowsWorkflowId = "catalog-sync-update-products-through-core-flows"

export interface UpdateThroughCoreFlowsInput {
  products: ProductToUpdate[]
  placement: Placement
}

export const updateProductsThroughCoreFlowsWorkflow = createWorkflow(updateProductsThroughCoreFlowsWorkflowId, (input: UpdateThroughCoreFlowsInput) => {
  // The map checked against the live variants, then the option words, lost, relabeled and
  // pruned sizes, as on the bulk path (update-sizes-first.ts).
  const { products, changes } = updateSizesFirst(input)

  const optionTitles = addSizeValuesStep(transform({ changes }, ({ changes }) => changes.added))
  // An item a crashed write made with a new size's SKU is linked, not made again.
  const adoptable = adoptableInventoryItemsStep(transform({ changes }, ({ changes }) => changes.added.map((a) => a.sku)))
  const added = when({ changes }, ({ changes }) => changes.added.length > 0).then(() =>
    createProductVariantsWorkflow.runAsStep({
      input: transform({ changes, optionTitles, adoptable }, ({ changes, optionTitles, adoptable }) => ({
        product_variants: changes.added.map((a) => ({
          product_id: a.productId,
          title: a.title,
          sku: a.sku,
          variant_rank: a.rank,
          options: { [optionTitles[a.productId] ?? a.optionTitle]: a.optionValue },
          manage_inventory: true,
          ...(adoptable[a.sku] ? { inventory_items: [{ inventory_item_id: adoptable[a.sku], required_quantity: 1 }] } : {}),
          metadata: a.metadata,
          prices: pricesOf(a.amount),
        })),
      })) as never,
    })
  )
  // The new variants' ids in `changes.added` order (matched by product and SKU).
  const addedIds = transform({ changes, added }, ({ changes, added }) => {
    const made = (added ?? []) as { id: string; product_id: string; sku: string | null }[]
    return changes.added.map((a) => {
      const hit = made.find((v) => v.product_id === a.productId && v.sku === a.sku)
      if (!hit) throw new Error(`variant ${a.sku} was not created`)
      return hit.id
    })
  })
  const addedItems = variantInventoryItemsStep(addedIds)
  // Kept variants a crash left without an inventory item get one (with its level).
  const repairedItemIds = createVariantInventoryStep(
    transform({ changes, input }, ({ changes, input }) => ({
      variants: changes.keptWithoutInventory.map((a) => ({ variantId: a.variantId!, sku: a.sku, title: a.title, quantity: a.quantity })),
      stockLocationId: input.placement.stockLocationId,
    }))
  )

  when({ products, changes }, ({ changes }) => changes.fieldsChanged.length > 0).then(() => {
    updateProductsWorkflow.runAsStep({
      input: transform({ products, changes }, ({ products, changes }) => {
        const wanted = new Set(changes.fieldsChanged)
        return { products: products.filter((p) => wanted.has(p.productId)).map((p) => ({ id: p.productId, ...productFields(p.input, p.lockedFields) })) }
      }) as never,
    })
  })
  when({ changes }, ({ changes }) => changes.keptFields.length + changes.keptPrices.length > 0).then(() => {
    updateProductVariantsWorkflow.runAsStep({
      input: transform({ changes }, ({ changes }) => {
        const byId = new Map<string, Record<string, unknown>>()
        for (const v of changes.keptFields) byId.set(v.variantId, { id: v.variantId, title: v.title, sku: v.sku, variant_rank: v.rank, metadata: v.metadata })
        for (const v of changes.keptPrices) byId.set(v.variantId, { ...(byId.get(v.variantId) ?? { id: v.variantId }), prices: pricesOf(v.amount) })
        return { product_variants: [...byId.values()] }
      }) as never,
    })
  })
  const levels = splitStockLevelsStep(
    transform({ changes, addedIds, addedItems, input }, ({ changes, addedIds, addedItems, input }) => ({
      levels: [...changes.keptLevels, ...changes.added.map((a, i) => ({ inventoryItemId: addedItems[addedIds[i]], quantity: a.quantity }))],
      stockLocationId: input.placement.stockLocationId,
    }))
  )
  parallelize(
    batchInventoryItemLevelsWorkflow.runAsStep({ input: levels }),
    ensureSalesChannelLinksStep(
      transform({ input, changes }, ({ input, changes }) => ({
        productIds: changes.fieldsChanged,
        salesChannelId: input.placement.salesChannelId,
        shippingProfileId: input.placement.shippingProfileId,
      }))
    )
  )

  const result = transform(
    { products, changes, addedIds, addedItems, repairedItemIds },
    ({ products, changes, addedIds, addedItems, repairedItemIds }): CreatedProduct[] =>
      updatedProductIds(products, changes, { variantIds: addedIds, itemIds: addedIds.map((id) => addedItems[id]) }, repairedItemIds)
  )
  return new WorkflowResponse(result)
})
