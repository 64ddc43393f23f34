// Plain SKUs unless another product holds one (an adopted leftover's own SKUs count as its own).
// In and out sealed (sealed.ts): some 200 products' sizes, which the engine would copy on each read.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { resolveVariantSkus, type SkuSubject } from "../resolve-variant-skus"
import { shopVariantSkus } from "../../bulk-write/reads/variant-skus"
import { sealShared, unseal, type Sealed } from "./sealed"

export const resolveVariantSkusStepId = "catalog-sync-resolve-variant-skus"

/** Each product's SKU by size, by catalog id. */
export type ChosenSkus = Record<string, Record<string, string>>

export const resolveVariantSkusStep = createStep(
  resolveVariantSkusStepId,
  async (input: { planned: Sealed<SkuSubject[]>; adopted: Record<string, string> }, { container }) => {
    const planned = unseal(input.planned)
    await resolveVariantSkus(shopVariantSkus(container), planned, new Map(Object.entries(input.adopted)))
    const chosen: ChosenSkus = Object.fromEntries(planned.map((p) => [p.catalogId, Object.fromEntries(p.input.variants.map((v) => [v.sizeKey, v.sku]))]))
    return new StepResponse(sealShared(chosen))
  }
)
