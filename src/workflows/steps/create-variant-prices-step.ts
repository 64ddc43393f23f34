// One price set per new variant (empty when the catalog has no price), linked to it. A
// variant that already has a price set (made by a crashed attempt) keeps it and gets exactly
// this price. Compensation dismisses the links and deletes the sets this step created.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { timed } from "./profile"
import { CURRENCY_CODE } from "../../sync/catalog-product"

export interface VariantPrice {
  variantId: string
  /** Major units, exact decimal string; null = no price. */
  amount: string | null
}

export function pricesOf(amount: string | null) {
  return amount === null ? [] : [{ amount, currency_code: CURRENCY_CODE }]
}

/** variant id → its linked price set id, for the variants that have one. */
export async function priceSetsOf(container: MedusaContainer, variantIds: string[]): Promise<Map<string, string>> {
  if (!variantIds.length) return new Map()
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "product_variant_price_set",
    fields: ["variant_id", "price_set_id"],
    filters: { variant_id: variantIds },
  })
  return new Map((data as { variant_id: string; price_set_id: string }[]).map((l) => [l.variant_id, l.price_set_id]))
}

export const createVariantPricesStep = createStep(
  "catalog-sync-create-variant-prices",
  async (variants: VariantPrice[], { container }) => {
    if (!variants.length) return new StepResponse([] as string[], { priceSetIds: [] as string[], variantIds: [] as string[] })
    const pricing = container.resolve(Modules.PRICING)
    const linked = await priceSetsOf(
      container,
      variants.map((v) => v.variantId)
    )
    const adopted = variants.filter((v) => linked.has(v.variantId))
    if (adopted.length) {
      await timed(container, "pricing.upsertPriceSets adopted", () =>
        pricing.upsertPriceSets(adopted.map((v) => ({ id: linked.get(v.variantId)!, prices: pricesOf(v.amount) })))
      )
    }
    const fresh = variants.filter((v) => !linked.has(v.variantId))
    const sets = fresh.length
      ? await timed(container, "pricing.createPriceSets", () => pricing.createPriceSets(fresh.map((v) => ({ prices: pricesOf(v.amount) }))))
      : []
    if (fresh.length) {
      const link = container.resolve(ContainerRegistrationKeys.LINK)
      await timed(container, "link.create variant-price", () =>
        link.create(
          fresh.map((v, i) => ({
            [Modules.PRODUCT]: { variant_id: v.variantId },
            [Modules.PRICING]: { price_set_id: sets[i].id },
          }))
        )
      )
    }
    fresh.forEach((v, i) => linked.set(v.variantId, sets[i].id))
    const priceSetIds = sets.map((s) => s.id)
    return new StepResponse(
      variants.map((v) => linked.get(v.variantId)!),
      { priceSetIds, variantIds: fresh.map((v) => v.variantId) }
    )
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
