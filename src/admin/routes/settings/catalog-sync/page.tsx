// Settings → Catalog sync: the readiness checklist, then the settings form once it loaded.
// The parts are in components/, one per file.
import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Button, Container, Heading, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { Link } from "react-router-dom"
import { ErrorState } from "../../../components/error-state"
import { LoadingState } from "../../../components/loading-state"
import { catalogSyncApi, queryKeys } from "../../../lib/api"
import { ReadinessChecklist } from "./components/readiness-checklist"
import { SettingsForm } from "./components/settings-form"

const CatalogSyncSettingsPage = () => {
  const settingsQuery = useQuery({
    queryKey: queryKeys.settings,
    queryFn: catalogSyncApi.getSettings,
    retry: 1,
  })

  return (
    <div className="flex flex-col gap-y-3" data-testid="catalog-sync-settings">
      <Container className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h1">Catalog sync</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Connect the reseller catalog and choose how its products and prices reach the shop.
          </Text>
        </div>
        <div className="flex items-center gap-x-2">
          <Button size="small" variant="secondary" asChild>
            <Link to="/catalog-sync" data-testid="catalog-sync-status-link">
              Status and history
            </Link>
          </Button>
          <Button size="small" variant="secondary" asChild>
            <Link to="/settings/catalog-sync/runs">Run history</Link>
          </Button>
        </div>
      </Container>
      <ReadinessChecklist />
      {settingsQuery.isPending ? (
        <Container className="p-0">
          <LoadingState rows={6} />
        </Container>
      ) : settingsQuery.isError ? (
        <Container className="p-0">
          <ErrorState what="The catalog sync settings" error={settingsQuery.error} onRetry={() => settingsQuery.refetch()} />
        </Container>
      ) : (
        // Remount on every saved revision so the form starts from what was stored.
        <SettingsForm key={settingsQuery.data.settings.revision} saved={settingsQuery.data.settings} />
      )}
    </div>
  )
}

export const config = defineRouteConfig({
  label: "Catalog sync",
})

export default CatalogSyncSettingsPage
