import { Button, Heading, Text } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { HistoryPanel } from "../../../catalog-sync/components/history-panel"

/** Every sync run of the last 30 days: quiet polls folded per day, filters, and changes per day. */
const CatalogSyncRunsPage = () => (
  <div className="flex flex-col gap-y-3">
    <div className="flex items-center justify-between">
      <div>
        <Heading level="h1">Catalog sync history</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          What each catalog sync did. Open a run to see what it changed and what it rejected.
        </Text>
      </div>
      <div className="flex gap-x-2">
        <Button size="small" variant="secondary" asChild>
          <Link to="/catalog-sync">Status</Link>
        </Button>
        <Button size="small" variant="secondary" asChild>
          <Link to="/settings/catalog-sync">Settings</Link>
        </Button>
      </div>
    </div>
    <HistoryPanel runHref={(id) => `/settings/catalog-sync/runs/${id}`} />
  </div>
)

export default CatalogSyncRunsPage
