// Plain SKUs unless another product holds one (an adopted leftover's own SKUs count as its own).
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveVariantSkus, shopVariantSkus, type SkuSubject } from "../resolve-variant-skus"
import { knexOf } from "./store-variant-costs-step"

export const resolveVariantSkusStepId = "catalog-sync-resolve-variant-skus"

export const resolveVariantSkusStep = createStep(
  resolveVariantSkusStepId,
  async (input: { planned: SkuSubject[]; adopted: Record<string, string> }, { container }) => {
    await resolveVariantSkus(shopVariantSkus(knexOf(container)), input.planned, new Map(Object.entries(input.adopted)))
    return new StepResponse(input.planned)
  }
)
