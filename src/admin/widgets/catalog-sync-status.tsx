import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { SyncSummaryLine } from "../components/sync-summary-line"

/**
 * One line about the sync on the product list, linking to the sync page where the full panel is.
 * Medusa 2.21's layouts drop the zone's ".before" and place widgets after the list (the admin can
 * move it with the layout customiser); the top bar's chip keeps a running sync in view.
 */
const CatalogSyncStatusWidget = () => <SyncSummaryLine />

export const config = defineWidgetConfig({
  zone: "product.list.before",
})

export default CatalogSyncStatusWidget
