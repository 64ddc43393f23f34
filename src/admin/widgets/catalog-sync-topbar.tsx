import { defineWidgetConfig } from "@medusajs/admin-sdk"
import { Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { Link } from "react-router-dom"
import { catalogSyncApi, queryKeys } from "../lib/api"
import { progressOfRun } from "../lib/progress"
import { useNow } from "../lib/use-now"

/**
 * A chip in the dashboard's top bar while a sync runs ("Catalog sync 42 %"), linking to the
 * plugin's page: visible without scrolling on the product list (and every other page), where
 * Medusa 2.21 puts the product-list widget after the list. Polls the light /progress route,
 * which never calls the catalog: 5 s while a run goes, 60 s otherwise. Renders nothing when
 * idle or when the route fails, so it can never break the top bar.
 */
const CatalogSyncTopbarWidget = () => {
  const progress = useQuery({
    queryKey: queryKeys.progress,
    queryFn: catalogSyncApi.getProgress,
    retry: false,
    refetchInterval: (q) => (q.state.error ? 120_000 : q.state.data?.running_run ? 5_000 : 60_000),
  })
  const run = progress.data?.running_run ?? null
  const now = useNow(!!run)
  if (!run) return null
  const view = progressOfRun(run, { now, expectedTotal: progress.data?.expected_total ?? null })
  return (
    <Link
      to="/catalog-sync"
      className="bg-ui-bg-subtle hover:bg-ui-bg-subtle-hover flex items-center gap-x-2 rounded-full border px-3 py-1"
      data-testid="catalog-sync-topbar"
      data-percent={view.percent ?? ""}
      title={view.summary}
    >
      <span className="h-2 w-2 animate-pulse rounded-full" style={{ backgroundColor: "var(--tag-blue-icon)" }} />
      <Text size="xsmall" weight="plus" className="tabular-nums">
        Catalog sync {view.percent !== null ? `${view.percent} %` : `${view.done} read`}
      </Text>
    </Link>
  )
}

export const config = defineWidgetConfig({
  zone: "topbar",
})

export default CatalogSyncTopbarWidget
