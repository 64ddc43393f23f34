import { Module } from "@medusajs/framework/utils"
import CatalogSyncModuleService from "./service"
import { CATALOG_SYNC_MODULE } from "./module-name"

export { CATALOG_SYNC_MODULE }

export default Module(CATALOG_SYNC_MODULE, {
  service: CatalogSyncModuleService,
})

export { CatalogSyncModuleService }
