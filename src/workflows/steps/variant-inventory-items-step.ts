// The inventory item Medusa's variant workflows linked to each variant (createProductVariantsWorkflow
// makes one per managed variant), read back for the product map and the stock levels.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { liveItemsOfVariants } from "./live-inventory-links"

export const variantInventoryItemsStepId = "catalog-sync-variant-inventory-items"

/** variant id → its first live inventory item. */
export const variantInventoryItemsStep = createStep(variantInventoryItemsStepId, async (variantIds: string[], { container }) => {
  const items = await liveItemsOfVariants(container, variantIds)
  return new StepResponse(Object.fromEntries([...items].map(([variantId, ids]) => [variantId, ids[0]])) as Record<string, string>)
})
