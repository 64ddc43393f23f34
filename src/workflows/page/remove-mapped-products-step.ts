// The page's removals: mapped products the catalog removed (remove-catalog-products.ts).
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MapRow } from "../../sync/plan-page"
import { removeMappedProducts, type RemovalMode } from "../remove-catalog-products"

export const removeMappedProductsStepId = "catalog-sync-remove-mapped-products"

export const removeMappedProductsStep = createStep(
  removeMappedProductsStepId,
  async (input: { rows: MapRow[]; mode: RemovalMode; runId: string; syncedAt: string }, { container }) => {
    await removeMappedProducts(container, input.rows, { mode: input.mode, runId: input.runId, now: new Date(input.syncedAt) })
    return new StepResponse(undefined)
  }
)
