// The product map (catalog_product_map) as the runner reads it.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { MapRow } from "../sync/plan-page"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"

export type CatalogSyncService = {
  listCatalogProductMaps(filters: Record<string, unknown>, config?: Record<string, unknown>): Promise<MapRow[]>
  createCatalogProductMaps(data: Record<string, unknown>[]): Promise<unknown>
  updateCatalogProductMaps(data: Record<string, unknown>[] | { selector: Record<string, unknown>; data: Record<string, unknown> }): Promise<unknown>
}

export function catalogSyncService(container: MedusaContainer): CatalogSyncService {
  return container.resolve(CATALOG_SYNC_MODULE) as unknown as CatalogSyncService
}
