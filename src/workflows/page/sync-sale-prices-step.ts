// The selling price of every written variant in the sale price list, when it is below the
// crossed-out base price (else its sale price goes).
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { salePricesOf } from "../extras"
import { syncSalePrices } from "../extras/sale-prices"
import type { WrittenProduct } from "./page-types"
import { peek, type Sealed } from "./sealed"

export const syncSalePricesStepId = "catalog-sync-sync-sale-prices"

export const syncSalePricesStep = createStep(
  syncSalePricesStepId,
  async (input: { written: Sealed<WrittenProduct[]>; salePriceListId: string | null }, { container }) => {
    const written = peek(input.written)
    if (written.length && input.salePriceListId) await syncSalePrices(container, input.salePriceListId, salePricesOf(written))
    return new StepResponse(undefined)
  }
)
