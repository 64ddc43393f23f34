// Sets inventory levels at the sync's stock location: existing levels are updated, a
// missing one (e.g. after the location setting changed) is created. Idempotent.
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

export interface StockLevel {
  inventoryItemId: string
  quantity: number
}

export const setStockLevelsStep = createStep(
  "catalog-sync-set-stock-levels",
  async (input: { levels: StockLevel[]; stockLocationId: string }, { container }) => {
    if (!input.levels.length) return new StepResponse(undefined)
    const inventory = container.resolve(Modules.INVENTORY)
    const ids = input.levels.map((l) => l.inventoryItemId)
    const existing = await inventory.listInventoryLevels(
      { inventory_item_id: ids, location_id: input.stockLocationId },
      { select: ["id", "inventory_item_id", "stocked_quantity"], take: null }
    )
    const current = new Map(existing.map((l) => [l.inventory_item_id, l]))
    const toUpdate = input.levels
      .filter((l) => current.has(l.inventoryItemId) && Number(current.get(l.inventoryItemId)!.stocked_quantity) !== l.quantity)
      .map((l) => ({ inventory_item_id: l.inventoryItemId, location_id: input.stockLocationId, stocked_quantity: l.quantity }))
    const toCreate = input.levels
      .filter((l) => !current.has(l.inventoryItemId))
      .map((l) => ({ inventory_item_id: l.inventoryItemId, location_id: input.stockLocationId, stocked_quantity: l.quantity }))
    if (toUpdate.length) await inventory.updateInventoryLevels(toUpdate)
    if (toCreate.length) await inventory.createInventoryLevels(toCreate)
    return new StepResponse(undefined)
  }
)
