// The selling price of every written variant in the sale price list, when it is below the
// crossed-out base price (else its sale price goes).
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { salePricesOf } from "../extras"
import { syncSalePrices } from "../extras/sale-prices"
import type { WrittenProduct } from "./page-types"

export const syncSalePricesStepId = "catalog-sync-sync-sale-prices"

export const syncSalePricesStep = createStep(
  syncSalePricesStepId,
  async (input: { written: WrittenProduct[]; salePriceListId: string | null }, { container }) => {
    if (input.written.length && input.salePriceListId) await syncSalePrices(container, input.salePriceListId, salePricesOf(input.written))
    return new StepResponse(undefined)
  }
)
