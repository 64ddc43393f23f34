// The page's stock-only changes through the run's writer (src/shop-writer): the changed levels at
// the sync's location, and a level where an item has none there, with the inventory-level events.
// Setting a level to a quantity is idempotent, so no compensation.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { StockChange } from "../../bulk-write"
import { shopWriter } from "../../shop-writer/choose-shop-writer"

export const setStockInBulkStepId = "catalog-sync-set-stock-in-bulk"

export const setStockInBulkStep = createStep(setStockInBulkStepId, async (input: { levels: StockChange[]; stockLocationId: string }, { container }) => {
  if (input.levels.length) await (await shopWriter(container)).setStock(input.levels, input.stockLocationId)
  return new StepResponse(undefined)
})
