// Sets inventory levels at the sync's stock location: existing levels are updated, a
// missing one (e.g. after the location setting changed) is created. Idempotent.
import { InventoryLevelWorkflowEvents, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { emitFromStep } from "./emit-from-step"

export interface StockLevel {
  inventoryItemId: string
  quantity: number
}

export const setStockLevelsStep = createStep("catalog-sync-set-stock-levels", async (input: { levels: StockLevel[]; stockLocationId: string }, context) => {
  const { container } = context
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
  const updated = toUpdate.length ? await inventory.updateInventoryLevels(toUpdate) : []
  const created = toCreate.length ? await inventory.createInventoryLevels(toCreate) : []
  // batchInventoryItemLevelsWorkflow's public events (the module's own are internal only).
  await emitFromStep(
    context,
    InventoryLevelWorkflowEvents.UPDATED,
    updated.map((l) => l.id)
  )
  await emitFromStep(
    context,
    InventoryLevelWorkflowEvents.CREATED,
    created.map((l) => l.id)
  )
  return new StepResponse(undefined)
})
