// The field locks of the page's mapped products (shop default and per-product overrides) and
// whether admin edits lock fields (then the page records what it wrote).
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { LockableField } from "../../field-locks"
import { CATALOG_SYNC_MODULE } from "../../modules/catalog_sync/module-name"
import type CatalogSyncModuleService from "../../modules/catalog_sync/service"

export const readFieldLocksStepId = "catalog-sync-read-field-locks"

export interface PageFieldLocks {
  /** product id → locked fields (products without locks absent). */
  byProductId: Record<string, LockableField[]>
  autoLockOnAdminEdit: boolean
}

export const readFieldLocksStep = createStep(readFieldLocksStepId, async (productIds: string[], { container }) => {
  const service = container.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
  const { byProductId, defaults } = await service.readFieldLocksAndDefaults(productIds)
  return new StepResponse<PageFieldLocks>({ byProductId, autoLockOnAdminEdit: defaults.auto_lock_on_admin_edit })
})
