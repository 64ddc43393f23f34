// One inventory item per new variant, its level at the sync's stock location, and the
// variant ↔ item link. Compensation dismisses the links and deletes the items.
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { timed } from "./profile"

export interface VariantStock {
  variantId: string
  sku: string
  title: string
  quantity: number
}

export const createVariantInventoryStep = createStep(
  "catalog-sync-create-variant-inventory",
  async (input: { variants: VariantStock[]; stockLocationId: string }, { container }) => {
    const { variants, stockLocationId } = input
    if (!variants.length) return new StepResponse([] as string[], { itemIds: [] as string[], variantIds: [] as string[] })
    const inventory = container.resolve(Modules.INVENTORY)
    const items = await timed(container, "inventory.createInventoryItems", () => inventory.createInventoryItems(variants.map((v) => ({ sku: v.sku, title: v.title, requires_shipping: true }))))
    const itemIds = items.map((i) => i.id)
    await timed(container, "inventory.createInventoryLevels", () => inventory.createInventoryLevels(
      variants.map((v, i) => ({ inventory_item_id: itemIds[i], location_id: stockLocationId, stocked_quantity: v.quantity }))
    ))
    const link = container.resolve(ContainerRegistrationKeys.LINK)
    await timed(container, "link.create variant-inventory", () => link.create(
      variants.map((v, i) => ({
        [Modules.PRODUCT]: { variant_id: v.variantId },
        [Modules.INVENTORY]: { inventory_item_id: itemIds[i] },
        data: { required_quantity: 1 },
      }))
    ))
    return new StepResponse(itemIds, { itemIds, variantIds: variants.map((v) => v.variantId) })
  },
  async (undo, { container }) => {
    if (!undo?.itemIds.length) return
    const link = container.resolve(ContainerRegistrationKeys.LINK)
    await link.dismiss(
      undo.variantIds.map((variantId, i) => ({
        [Modules.PRODUCT]: { variant_id: variantId },
        [Modules.INVENTORY]: { inventory_item_id: undo.itemIds[i] },
      }))
    )
    await container.resolve(Modules.INVENTORY).deleteInventoryItems(undo.itemIds)
  }
)
