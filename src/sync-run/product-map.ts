// The product map (mcs_product_map) as the run loop (runSync) reads it: the module service, its map
// rows typed with their JSON columns (CatalogProductMapRow, defined next to the model).
import type { MedusaContainer } from "@medusajs/framework/types"
import type { CatalogSyncModuleService } from "../modules/catalog_sync"
import type { CatalogProductMapRow } from "../modules/catalog_sync/models/catalog-product-map"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"
import type { MapRow } from "../sync/plan-page"

export type CatalogSyncService = Omit<CatalogSyncModuleService, "listCatalogProductMaps"> & {
  listCatalogProductMaps(...args: Parameters<CatalogSyncModuleService["listCatalogProductMaps"]>): Promise<CatalogProductMapRow[]>
}

// The pure core's MapRow (src/sync cannot import Medusa) must stay readable from a model row.
const _mapRowFromModel: (row: CatalogProductMapRow) => MapRow = (row) => row
void _mapRowFromModel

export function catalogSyncService(container: MedusaContainer): CatalogSyncService {
  return container.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE) as unknown as CatalogSyncService
}

/** The shop's catalog products now (active map rows): the base of the safety brake's removal share. */
export async function activeCatalogProducts(container: MedusaContainer): Promise<number> {
  const [, count] = await catalogSyncService(container).listAndCountCatalogProductMaps({ status: "active" }, { select: ["id"], take: 1 })
  return count
}
