// The page workflow's first step: what the writes need to know of the shop, read before them.
// The map is checked against the shop first (it may move products to create or update); then,
// side by side, what Medusa holds of the products the page rewrites or removes (change log),
// crash leftovers to adopt, and the field locks of the mapped products. Returns the extra copies
// of crash leftovers, which the workflow deletes with Medusa's deleteProductsWorkflow. Reads only:
// nothing to compensate.
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { liveShopIds } from "../../bulk-write/reads/live-ids"
import { CATALOG_SYNC_MODULE } from "../../modules/catalog_sync/module-name"
import type CatalogSyncModuleService from "../../modules/catalog_sync/service"
import { ALL_PARTS } from "../../sync/fingerprint"
import { isOwnProduct } from "../../sync/map-card"
import { openPage, type CrashLeftovers, type PageFieldLocks } from "./page-context"
import { planRecords, type PlannedRecord, type PlanRecords } from "./page-types"
import { readShopBefore, shopBeforeWanted } from "./record-changes-step"

export const preparePageStepId = "catalog-sync-prepare-page"

/**
 * The page's records, with products the shop no longer holds moved. A mapped product that is no
 * longer live (deleted in the admin) is created again. A stock-only write goes to the inventory
 * items the map names; when one of the map's variants or items is no longer live (deleted in the
 * admin, or by an older version that kept deleted ids in the map), the product is written as an
 * update instead, which re-reads the shop's live variants and repairs the map.
 */
async function checkMapAgainstShop(container: MedusaContainer, plan: PlanRecords): Promise<PlanRecords> {
  const mapped = [...plan.update, ...plan.stockOnly]
  if (!mapped.length) return plan
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
  if (!repair.length && !gone.length) return plan
  return {
    ...plan,
    create: [...plan.create, ...gone.map((p) => ({ ...p, partsToWrite: ALL_PARTS }))],
    stockOnly: plan.stockOnly.filter((p) => !repair.includes(p) && !gone.includes(p)),
    update: [...plan.update.filter((p) => !gone.includes(p)), ...repair.map((p) => ({ ...p, partsToWrite: ALL_PARTS }))],
  }
}

/**
 * Products a crash left behind between the product write and the map write: made by this plugin
 * (metadata marker) for a catalog id being created, but with no active map row. The create adopts
 * one of them (it is written as an update: its variants, prices and inventory are found by option
 * value and SKU, what is missing is made), so the product keeps its id and nothing is made twice;
 * any further copies are deleted. A product of another import that merely shares the external_id
 * is left alone.
 */
async function findCrashLeftovers(container: MedusaContainer, catalogIds: string[]): Promise<CrashLeftovers> {
  const out: CrashLeftovers = { adopted: {}, extraIds: [] }
  if (!catalogIds.length) return out
  const products = await container
    .resolve(Modules.PRODUCT)
    .listProducts({ external_id: catalogIds }, { select: ["id", "external_id", "metadata", "created_at"], take: null })
  const orphans = products.filter(isOwnProduct).sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || a.id.localeCompare(b.id))
  for (const p of orphans) {
    if (out.adopted[p.external_id!]) out.extraIds.push(p.id)
    else out.adopted[p.external_id!] = p.id
  }
  return out
}

/** The field locks of the page's mapped products (shop default and per-product overrides) and whether admin edits lock fields. */
async function readFieldLocks(container: MedusaContainer, productIds: string[]): Promise<PageFieldLocks> {
  const { byProductId, defaults } = await container.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE).readFieldLocksAndDefaults(productIds)
  return { byProductId, autoLockOnAdminEdit: defaults.auto_lock_on_admin_edit }
}

export const preparePageStep = createStep(preparePageStepId, async (input: { pageKey: string }, { container }) => {
  const open = openPage(input.pageKey)
  const records = await checkMapAgainstShop(container, planRecords(open.page.plan))
  const [shopBefore, leftovers, locks] = await Promise.all([
    readShopBefore(container, shopBeforeWanted(records, open.page.refs.salePriceListId)),
    findCrashLeftovers(
      container,
      records.create.map((p) => p.catalogId)
    ),
    // Locked fields leave the updates and stock-only levels.
    readFieldLocks(
      container,
      [...records.update, ...records.stockOnly].flatMap((p) => (p.row?.product_id ? [p.row.product_id] : []))
    ),
  ])
  open.prepared = { records, shopBefore, leftovers, locks }
  return new StepResponse({ extraIds: leftovers.extraIds })
})
