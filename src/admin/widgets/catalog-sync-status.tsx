import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { CatalogSyncStatusPanel } from "../routes/catalog-sync/components/status-panel"

/**
 * The sync status on the product list. Medusa 2.21's layouts drop the zone's ".before" and
 * place widgets after the list (the admin can move it with the layout customiser); the top
 * bar's chip (catalog-sync-topbar.tsx) and the plugin's own page keep it in view.
 */
const CatalogSyncStatusWidget = () => <CatalogSyncStatusPanel />

export const config = defineWidgetConfig({
  zone: "product.list.before",
})

export default CatalogSyncStatusWidget
