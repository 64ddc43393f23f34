// Before Medusa's createProductVariantsWorkflow makes new variants: the inventory items a crashed
// write left with their SKUs (linked to no live variant), handed to the workflow as the variants'
// `inventory_items` so it links them instead of making items Medusa would refuse (SKUs are unique).
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { adoptableItemsBySku } from "./live-inventory-links"

export const adoptableInventoryItemsStepId = "catalog-sync-adoptable-inventory-items"

/** SKU → the live, unused inventory item with that SKU. */
export const adoptableInventoryItemsStep = createStep(adoptableInventoryItemsStepId, async (skus: string[], { container }) => {
  const items = await adoptableItemsBySku(
    container,
    skus.map((sku) => ({ sku }))
  )
  return new StepResponse(Object.fromEntries(items) as Record<string, string>)
})
