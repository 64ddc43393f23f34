// Updates kept variants of changed products: title, SKU and metadata where those changed,
// and prices where they changed (each price set gets exactly the catalog's price in uah).
import { ContainerRegistrationKeys, Modules, ProductVariantWorkflowEvents } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { timed } from "./profile"
import { pricesOf } from "./create-variant-prices-step"
import { emitFromStep } from "./emit-from-step"
import type { WantedVariant } from "../../sync/kept-variant-changes"

/** A kept variant's wanted title, SKU, rank, metadata and price: the shape the write-or-skip check reads. */
export type VariantUpdate = WantedVariant

export const updateVariantsStep = createStep("catalog-sync-update-variants", async (input: { fields: VariantUpdate[]; prices: VariantUpdate[] }, context) => {
  const { container } = context
  // updateProductVariantsWorkflow's public event (the shop's own variant edit, prices included): one per variant written.
  await emitFromStep(context, ProductVariantWorkflowEvents.UPDATED, [...new Set([...input.fields, ...input.prices].map((v) => v.variantId))])
  if (input.fields.length) {
    const productModule = container.resolve(Modules.PRODUCT)
    await timed(container, "product.upsertProductVariants", () =>
      productModule.upsertProductVariants(
        input.fields.map((v) => ({
          id: v.variantId,
          title: v.title,
          sku: v.sku,
          metadata: v.metadata,
          ...(v.rank === undefined ? {} : { variant_rank: v.rank }),
        }))
      )
    )
  }
  const variants = input.prices
  if (!variants.length) return new StepResponse(undefined)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({
    entity: "product_variant_price_set",
    fields: ["variant_id", "price_set_id"],
    filters: { variant_id: variants.map((v) => v.variantId) },
  })
  const priceSetByVariant = new Map(links.map((l: { variant_id: string; price_set_id: string }) => [l.variant_id, l.price_set_id]))
  const pricing = container.resolve(Modules.PRICING)
  const withSet = variants.filter((v) => priceSetByVariant.has(v.variantId))
  if (withSet.length) {
    await timed(container, "pricing.upsertPriceSets", () =>
      pricing.upsertPriceSets(withSet.map((v) => ({ id: priceSetByVariant.get(v.variantId)!, prices: pricesOf(v.amount) })))
    )
  }
  const withoutSet = variants.filter((v) => !priceSetByVariant.has(v.variantId))
  if (withoutSet.length) {
    const sets = await pricing.createPriceSets(withoutSet.map((v) => ({ prices: pricesOf(v.amount) })))
    await container
      .resolve(ContainerRegistrationKeys.LINK)
      .create(withoutSet.map((v, i) => ({ [Modules.PRODUCT]: { variant_id: v.variantId }, [Modules.PRICING]: { price_set_id: sets[i].id } })))
  }
  return new StepResponse(undefined)
})
