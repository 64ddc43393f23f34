// The page's stock-only changes through the bulk writer: one UPDATE of the changed levels at the
// sync's location and one INSERT where an item has none there, in one transaction, then the
// inventory-level events Medusa's inventory module emits for the same writes (src/bulk-write).
// Setting a level to a quantity is idempotent, so no compensation.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { writePageInBulk, type StockChange } from "../../bulk-write"
import { writePathOf } from "../write-path"
import { setStockThroughCoreFlows } from "../writes-through-core-flows"

export const setStockInBulkStepId = "catalog-sync-set-stock-in-bulk"

export const setStockInBulkStep = createStep(setStockInBulkStepId, async (input: { levels: StockChange[]; stockLocationId: string }, { container }) => {
  if (!input.levels.length) return new StepResponse(undefined)
  if ((await writePathOf(container)) === "workflows") await setStockThroughCoreFlows(container, input.levels, input.stockLocationId)
  else await writePageInBulk(container, (page) => page.setStock(input.levels, input.stockLocationId))
  return new StepResponse(undefined)
})
