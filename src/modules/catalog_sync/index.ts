import { Module } from "@medusajs/framework/utils"
import CatalogSyncModuleService from "./service"

export const CATALOG_SYNC_MODULE = "catalog_sync"

export default Module(CATALOG_SYNC_MODULE, {
  service: CatalogSyncModuleService,
})

export { CatalogSyncModuleService }
