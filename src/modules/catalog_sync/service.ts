import { MedusaService } from "@medusajs/framework/utils"
import CatalogSyncSettings from "./models/catalog-sync-settings"
import CatalogSyncState from "./models/catalog-sync-state"
import CatalogSyncRun from "./models/catalog-sync-run"
import CatalogProductMap from "./models/catalog-product-map"
import CatalogBrand from "./models/catalog-brand"
import CatalogBrandModel from "./models/catalog-brand-model"

/**
 * The catalog_sync module's service. MedusaService generates the CRUD methods
 * (listCatalogSyncRuns, createCatalogProductMaps, ...); the plugin-specific
 * behaviour lives in src/sync (pure) and src/workflows (Medusa writes).
 */
class CatalogSyncModuleService extends MedusaService({
  CatalogSyncSettings,
  CatalogSyncState,
  CatalogSyncRun,
  CatalogProductMap,
  CatalogBrand,
  CatalogBrandModel,
}) {}

export default CatalogSyncModuleService
