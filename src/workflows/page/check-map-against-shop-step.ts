// The product map is checked against the shop before writing. A mapped product that is no longer
// live (deleted in the admin) is created again. A stock-only write goes to the inventory items the
// map names; when one of the map's variants or items is no longer live (deleted in the admin, or
// by an older version that kept deleted ids in the map), the product is written as an update
// instead, which re-reads the shop's live variants and repairs the map.
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { PlannedRecord, PlanRecords } from "./page-types"

export const checkMapAgainstShopStepId = "catalog-sync-check-map-against-shop"

export const checkMapAgainstShopStep = createStep(checkMapAgainstShopStepId, async (plan: Pick<PlanRecords, "create" | "update" | "stockOnly">, { container }) => {
  const mapped = [...plan.update, ...plan.stockOnly]
  if (!mapped.length) return new StepResponse(plan)
  const variantIds = plan.stockOnly.flatMap((p) => Object.values(p.row!.variant_ids ?? {}))
  const itemIds = plan.stockOnly.flatMap((p) => Object.values(p.row!.inventory_item_ids ?? {}))
  const [products, variants, items] = await Promise.all([
    container.resolve(Modules.PRODUCT).listProducts({ id: mapped.map((p) => p.row!.product_id!) }, { select: ["id"], take: null }),
    variantIds.length ? container.resolve(Modules.PRODUCT).listProductVariants({ id: variantIds }, { select: ["id"], take: null }) : [],
    itemIds.length ? container.resolve(Modules.INVENTORY).listInventoryItems({ id: itemIds }, { select: ["id"], take: null }) : [],
  ])
  const liveProducts = new Set(products.map((p) => p.id))
  const gone = mapped.filter((p) => !liveProducts.has(p.row!.product_id!))
  const live = new Set([...variants.map((v) => v.id), ...items.map((i) => i.id)])
  const stale = (p: PlannedRecord) =>
    !gone.includes(p) &&
    ([...Object.values(p.row!.variant_ids ?? {}), ...Object.values(p.row!.inventory_item_ids ?? {})].some((id) => !live.has(id)) ||
      p.sizeKeys.some((size) => !p.row!.variant_ids?.[size] || !p.row!.inventory_item_ids?.[size]))
  const repair = plan.stockOnly.filter(stale)
  if (!repair.length && !gone.length) return new StepResponse(plan)
  const all = { fields: true, variants: true, prices: true }
  return new StepResponse({
    create: [...plan.create, ...gone.map((p) => ({ ...p, partsToWrite: all }))],
    stockOnly: plan.stockOnly.filter((p) => !repair.includes(p) && !gone.includes(p)),
    update: [...plan.update.filter((p) => !gone.includes(p)), ...repair.map((p) => ({ ...p, partsToWrite: all }))],
  })
})
