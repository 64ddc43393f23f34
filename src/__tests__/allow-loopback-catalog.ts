// Specs whose scripted catalog listens on loopback, which the plugin refuses by default
// (CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS): allowed for the spec, the variable as it was afterwards.
/** Call at a spec file's top level (or in a describe): sets the allowance before each test, or once before all. */
export function allowLoopbackCatalog(when: "beforeEach" | "beforeAll" = "beforeEach"): void {
  const before = process.env.CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS
  ;(when === "beforeEach" ? beforeEach : beforeAll)(() => {
    process.env.CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS = "true"
  })
  afterAll(() => {
    if (before === undefined) delete process.env.CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS
    else process.env.CATALOG_SYNC_ALLOW_PRIVATE_NETWORKS = before
  })
}
