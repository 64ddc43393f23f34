// The stock-only fast path: a card whose only change is stock touches inventory levels only.
import { createWorkflow, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { setStockLevelsStep, type StockLevel } from "./steps/set-stock-levels-step"

export const setCatalogStockWorkflow = createWorkflow("catalog-sync-set-catalog-stock", (input: { levels: StockLevel[]; stockLocationId: string }) => {
  setStockLevelsStep(input)
  return new WorkflowResponse(undefined)
})
