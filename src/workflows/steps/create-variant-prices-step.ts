// One price set per new variant (empty when the catalog has no price), linked to it.
// Compensation dismisses the links and deletes the sets.
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { timed } from "./profile"
import { CURRENCY_CODE } from "../../sync/product-input"

export interface VariantPrice {
  variantId: string
  /** Major units, exact decimal string; null = no price. */
  amount: string | null
}

export function pricesOf(amount: string | null) {
  return amount === null ? [] : [{ amount, currency_code: CURRENCY_CODE }]
}

export const createVariantPricesStep = createStep(
  "catalog-sync-create-variant-prices",
  async (variants: VariantPrice[], { container }) => {
    if (!variants.length) return new StepResponse([] as string[], { priceSetIds: [] as string[], variantIds: [] as string[] })
    const pricing = container.resolve(Modules.PRICING)
    const sets = await timed(container, "pricing.createPriceSets", () => pricing.createPriceSets(variants.map((v) => ({ prices: pricesOf(v.amount) }))))
    const link = container.resolve(ContainerRegistrationKeys.LINK)
    await timed(container, "link.create variant-price", () => link.create(
      variants.map((v, i) => ({
        [Modules.PRODUCT]: { variant_id: v.variantId },
        [Modules.PRICING]: { price_set_id: sets[i].id },
      }))
    ))
    const priceSetIds = sets.map((s) => s.id)
    return new StepResponse(priceSetIds, { priceSetIds, variantIds: variants.map((v) => v.variantId) })
  },
  async (undo, { container }) => {
    if (!undo?.priceSetIds.length) return
    const link = container.resolve(ContainerRegistrationKeys.LINK)
    await link.dismiss(
      undo.variantIds.map((variantId, i) => ({
        [Modules.PRODUCT]: { variant_id: variantId },
        [Modules.PRICING]: { price_set_id: undo.priceSetIds[i] },
      }))
    )
    await container.resolve(Modules.PRICING).deletePriceSets(undo.priceSetIds)
  }
)
