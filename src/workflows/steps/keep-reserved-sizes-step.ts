// Before the update workflow deletes lost sizes' variants: a variant whose stock an open order
// reserved is not handed to deleteProductVariantsWorkflow (it would refuse the whole product's
// write, on every run, while the size stayed on sale). It is kept for the order, taken off sale
// and recorded as a pending removal, as the bulk size path does (bulk-write/open-orders.ts).
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { KEPT_FOR_OPEN_ORDER, recordPendingRemovals, reservedVariantIds, writePageInBulk } from "../../bulk-write"

export const keepReservedSizesStepId = "catalog-sync-keep-reserved-sizes"

/** Takes the lost sizes' variant ids; returns those that may be deleted now. */
export const keepReservedSizesStep = createStep(keepReservedSizesStepId, async (variantIds: string[], { container }) => {
  if (!variantIds.length) return new StepResponse({ removable: [] as string[], kept: [] as string[] })
  const kept = await writePageInBulk(container, async (page) => {
    const reserved = [...(await reservedVariantIds(page.trx, variantIds))]
    if (!reserved.length) return []
    const owners: { id: string; product_id: string }[] = await page.trx("product_variant").select("id", "product_id").whereIn("id", reserved)
    await page.takeOffSale(reserved)
    await recordPendingRemovals(
      page.trx,
      owners.map((v) => ({ kind: "size", subjectId: v.id, productId: v.product_id })),
      null
    )
    return reserved
  })
  if (kept.length) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .info(`catalog sync: ${kept.length} removed size(s) ${KEPT_FOR_OPEN_ORDER} (off sale, removed once nothing is reserved): ${kept.join(", ")}`)
  }
  return new StepResponse({ removable: variantIds.filter((id) => !kept.includes(id)), kept })
})
