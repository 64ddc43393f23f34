// The module's registration name. Kept as its own file so code that only needs the name
// (links, the run loop in sync-run/, the workflows) does not load the service; no cycle depends on it any more.
export const CATALOG_SYNC_MODULE = "catalog_sync"
