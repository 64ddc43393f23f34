// The product map (catalog_product_map) as the runner uses it, and the one way a mapped
// product is removed: by a removal item of a page and by the sweep at the end of a pass.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { MapRow } from "../sync/plan-page"
import { removeCatalogProducts, type RemovalMode } from "../workflows/remove-catalog-products"
import type { FidelityHooks } from "./fidelity-hooks"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"

export type CatalogSyncService = {
  listCatalogProductMaps(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<MapRow[]>
  createCatalogProductMaps(data: Record<string, unknown>[]): Promise<unknown>
  updateCatalogProductMaps(data: Record<string, unknown>[] | { selector: Record<string, unknown>; data: Record<string, unknown> }): Promise<unknown>
}

export function catalogSyncService(container: MedusaContainer): CatalogSyncService {
  return container.resolve(CATALOG_SYNC_MODULE) as unknown as CatalogSyncService
}

/**
 * Removes mapped products per the removal mode (fidelity's extras first, then the product:
 * soft-deleted or set to draft) and marks their map rows. The fingerprints are forgotten, so
 * a product the catalog sends again is rewritten in full.
 */
export async function removeMappedProducts(
  container: MedusaContainer,
  rows: Pick<MapRow, "id" | "product_id">[],
  opts: { mode: RemovalMode; hooks: FidelityHooks; runId?: string; now?: Date }
): Promise<void> {
  if (!rows.length) return
  const productIds = rows.map((r) => r.product_id).filter((id): id is string => !!id)
  if (productIds.length) {
    await opts.hooks.removeProductExtras(container, productIds)
    await removeCatalogProducts(container, productIds, opts.mode)
  }
  await catalogSyncService(container).updateCatalogProductMaps(
    rows.map((r) => ({
      id: r.id,
      status: opts.mode === "draft" ? "draft" : "removed",
      fingerprint: null,
      stock_fingerprint: null,
      ...(opts.runId ? { last_run_id: opts.runId } : {}),
      ...(opts.now ? { synced_at: opts.now } : {}),
      ...(opts.mode === "delete" ? { product_id: null, variant_ids: null, inventory_item_ids: null } : {}),
    }))
  )
}
