import { defineRouteConfig } from "@medusajs/admin-sdk"
import { ArrowPath } from "@medusajs/icons"
import { Button, Heading, Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { CatalogSyncStatusPanel } from "./components/status-panel"
import { HistoryPanel } from "./components/history-panel"
import { KeptForOrders } from "./components/kept-for-orders"
import { KeptProducts } from "./components/kept-products"

/**
 * The plugin's own page under the sidebar: the sync's status (with live progress) at the top,
 * where it needs no scrolling, the products the shop keeps though the catalog dropped them (each
 * list its own section, so the runs' filters sit with their table), and the run history below.
 */
const CatalogSyncPage = () => (
  <div className="flex flex-col gap-y-3" data-testid="catalog-sync-page">
    <div className="flex items-center justify-between">
      <div>
        <Heading level="h1">Catalog sync</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          Products from the reseller catalog: what the sync is doing now and what it did.
        </Text>
      </div>
      <Button size="small" variant="secondary" asChild>
        <Link to="/settings/catalog-sync">Settings</Link>
      </Button>
    </div>
    <CatalogSyncStatusPanel />
    <KeptProducts />
    <KeptForOrders />
    <HistoryPanel runHref={(id) => `/settings/catalog-sync/runs/${id}`} />
  </div>
)

export const config = defineRouteConfig({
  label: "Catalog sync",
  icon: ArrowPath,
})

export default CatalogSyncPage
