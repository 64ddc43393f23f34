// The runtime module's registration name (routes resolve the service by it).
export const CATALOG_SYNC_RUNTIME_MODULE = "catalog_sync_runtime"
