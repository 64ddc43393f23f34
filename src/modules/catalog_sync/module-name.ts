// The module's registration name, in a file of its own: code that resolves the service
// (runner, queue, fidelity hooks) imports this rather than the module's index, whose service
// import would close a cycle (module → service → runner → …).
export const CATALOG_SYNC_MODULE = "catalog_sync"
