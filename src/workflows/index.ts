// Public entry of the `medusa-catalog-sync/workflows` export: the workflows and helpers the
// sync writes products with, for apps that want to call them directly.
export { createProductsThroughCoreFlowsWorkflow, type CreateThroughCoreFlowsInput } from "./create-products-through-core-flows"
export { updateProductsThroughCoreFlowsWorkflow, type UpdateThroughCoreFlowsInput } from "./update-products-through-core-flows"
export { setCatalogStockWorkflow } from "./set-catalog-stock"
export { removeCatalogProducts, type RemovalMode } from "./remove-catalog-products"
export { ensureShopSetup, ensureShopSetupWorkflow, OWN_SALES_CHANNEL_NAME, OWN_STOCK_LOCATION_NAME } from "./ensure-shop-setup"
export type { CreatedProduct, Placement, ProductToCreate, ProductToUpdate } from "./page-input"
export { syncCatalogPageWorkflow, type SyncCatalogPageInput, type SyncCatalogPageResult } from "./sync-catalog-page"
