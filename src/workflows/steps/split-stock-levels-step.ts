// Stock levels at the sync's location for batchInventoryItemLevelsWorkflow: a level that exists is
// updated where its quantity differs, a missing one created (an item a crashed write made may lack
// its level). Reads only.
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

export interface WantedLevel {
  inventoryItemId: string
  quantity: number
}

export type LevelInput = { inventory_item_id: string; location_id: string; stocked_quantity: number }

export const splitStockLevelsStepId = "catalog-sync-split-stock-levels"

export const splitStockLevelsStep = createStep(splitStockLevelsStepId, async (input: { levels: WantedLevel[]; stockLocationId: string }, { container }) => {
  const out = { create: [] as LevelInput[], update: [] as LevelInput[] }
  if (!input.levels.length) return new StepResponse(out)
  const existing = await container
    .resolve(Modules.INVENTORY)
    .listInventoryLevels(
      { inventory_item_id: [...new Set(input.levels.map((l) => l.inventoryItemId))], location_id: input.stockLocationId },
      { select: ["inventory_item_id", "stocked_quantity"], take: null }
    )
  const stocked = new Map(existing.map((l) => [l.inventory_item_id, Number(l.stocked_quantity)]))
  for (const l of input.levels) {
    // A level already at its quantity is left alone: no inventory-level.updated for it (as on the bulk path).
    if (stocked.get(l.inventoryItemId) === l.quantity) continue
    const level = { inventory_item_id: l.inventoryItemId, location_id: input.stockLocationId, stocked_quantity: l.quantity }
    ;(stocked.has(l.inventoryItemId) ? out.update : out.create).push(level)
  }
  return new StepResponse(out)
})
