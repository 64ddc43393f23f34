// The catalog_sync_runtime module: the queue, the worker, the run lock and the catalog client
// factory of this process (see service.ts). Registered with the plugin (every folder under a
// plugin's src/modules is a module, given the plugin's options); it depends on catalog_sync,
// never the other way round.
import { defineJoinerConfig, Module } from "@medusajs/framework/utils"
import loader from "./loader"
import CatalogSyncRuntimeService from "./service"
import { CATALOG_SYNC_RUNTIME_MODULE } from "./module-name"

export { CATALOG_SYNC_RUNTIME_MODULE, CatalogSyncRuntimeService }
export type { RuntimeConfig, WorkerMode } from "./config"

// No models: say so, or Medusa looks for a models folder up the call stack.
const joinerConfig = defineJoinerConfig(CATALOG_SYNC_RUNTIME_MODULE, { models: [] })
;(CatalogSyncRuntimeService.prototype as { __joinerConfig?: () => unknown }).__joinerConfig = () => joinerConfig

export default Module(CATALOG_SYNC_RUNTIME_MODULE, {
  service: CatalogSyncRuntimeService,
  loaders: [loader],
})
