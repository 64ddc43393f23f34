// The product map is checked against the shop before writing. A mapped product that is no longer
// live (deleted in the admin) is created again. A stock-only write goes to the inventory items the
// map names; when one of the map's variants or items is no longer live (deleted in the admin, or
// by an older version that kept deleted ids in the map), the product is written as an update
// instead, which re-reads the shop's live variants and repairs the map.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { liveShopIds } from "../../bulk-write/reads/live-ids"
import type { PlannedRecord, PlanRecords } from "./page-types"
import { peek, seal, type Sealed } from "./sealed"
import { ALL_PARTS } from "../../sync/fingerprint"

export const checkMapAgainstShopStepId = "catalog-sync-check-map-against-shop"

/** The page's records, with products the shop no longer holds moved to create or update. */
export const checkMapAgainstShopStep = createStep(checkMapAgainstShopStepId, async (sealed: Sealed<PlanRecords>, { container }) => {
  const plan = peek(sealed)
  const mapped = [...plan.update, ...plan.stockOnly]
  if (!mapped.length) return new StepResponse(sealed)
  const variantIds = plan.stockOnly.flatMap((p) => Object.values(p.row!.variant_ids ?? {}))
  const itemIds = plan.stockOnly.flatMap((p) => Object.values(p.row!.inventory_item_ids ?? {}))
  // Once per changed product of every page: one statement (bulk-write/reads/live-ids.ts).
  const found = await liveShopIds(container, { productIds: mapped.map((p) => p.row!.product_id!), variantIds, itemIds })
  const liveProducts = new Set(found.products)
  const gone = mapped.filter((p) => !liveProducts.has(p.row!.product_id!))
  const live = new Set(found.variantsAndItems)
  const stale = (p: PlannedRecord) =>
    !gone.includes(p) &&
    ([...Object.values(p.row!.variant_ids ?? {}), ...Object.values(p.row!.inventory_item_ids ?? {})].some((id) => !live.has(id)) ||
      p.sizeKeys.some((size) => !p.row!.variant_ids?.[size] || !p.row!.inventory_item_ids?.[size]))
  const repair = plan.stockOnly.filter(stale)
  if (!repair.length && !gone.length) return new StepResponse(sealed)
  return new StepResponse(
    seal<PlanRecords>({
      ...plan,
      create: [...plan.create, ...gone.map((p) => ({ ...p, partsToWrite: ALL_PARTS }))],
      stockOnly: plan.stockOnly.filter((p) => !repair.includes(p) && !gone.includes(p)),
      update: [...plan.update.filter((p) => !gone.includes(p)), ...repair.map((p) => ({ ...p, partsToWrite: ALL_PARTS }))],
    })
  )
})
