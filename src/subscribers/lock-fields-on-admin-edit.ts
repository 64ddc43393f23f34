// Setting `field_locks.auto_lock_on_admin_edit`: a managed product's title, description,
// images or categories that differ from what the sync last wrote were edited by someone else
// (the dashboard, the admin API), so they are locked. The sync marks its own product.updated
// events (SYNC_WRITE_MARK) and they are skipped.
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { editedByAdmin, SYNC_WRITE_MARK, type PlannedFieldValues } from "../field-locks"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"
import type CatalogSyncModuleService from "../modules/catalog_sync/service"

export default async function lockFieldsOnAdminEdit({ event, container }: SubscriberArgs<{ id: string; [SYNC_WRITE_MARK]?: boolean }>) {
  if (event.data[SYNC_WRITE_MARK]) return
  const productId = event.data.id
  const service = container.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
  if (!(await service.getFieldLockDefaults()).auto_lock_on_admin_edit) return
  const row = (await service.listFieldLockRows([productId])).get(productId)
  if (!row?.written) return // not managed, or written before auto-lock was on
  const product = await container
    .resolve(Modules.PRODUCT)
    .retrieveProduct(productId, { relations: ["images", "categories"] })
    .catch(() => null)
  if (!product) return
  const current: PlannedFieldValues = {
    title: product.title,
    description: product.description ?? null,
    images: [...(product.images ?? [])].sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0)).map((i) => i.url),
    categories: (product.categories ?? []).map((c) => c.id),
  }
  const alreadyLocked = (await service.readFieldLocks([productId]))[productId] ?? []
  const edited = editedByAdmin(row.written, current, alreadyLocked)
  if (!edited.length) return
  await service.setProductFieldLock(productId, row.catalog_id, edited, true)
  container.resolve<Logger>("logger").info(`catalog sync: locked ${edited.join(", ")} of product ${productId} after an admin edit`)
}

export const config: SubscriberConfig = { event: "product.updated", context: { subscriberId: "catalog-sync-lock-fields-on-admin-edit" } }
