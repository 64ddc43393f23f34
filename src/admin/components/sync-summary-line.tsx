// The product list's one line about the sync: its state (the sync page's badge), when it last
// synced or what it does now, what needs the admin, and the way to the sync page. The same queries
// as the sync page (status, progress, kept products), so both say the same at the same moment.
import { ExclamationCircleSolid } from "@medusajs/icons"
import { Button, Container, StatusBadge, Text } from "@medusajs/ui"
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useEffect, useRef } from "react"
import { Link } from "react-router-dom"
import { catalogSyncApi, queryKeys } from "../lib/api"
import { describeError } from "../lib/errors"
import { formatRelative } from "../lib/format"
import { statusPollMs } from "../lib/status"
import { syncSummary } from "../lib/sync-summary"
import { useCatalogSyncProgress } from "../lib/use-progress"

export const SyncSummaryLine = () => {
  const queryClient = useQueryClient()
  const status = useQuery({
    queryKey: queryKeys.status,
    queryFn: catalogSyncApi.getStatus,
    retry: 1,
    refetchInterval: (query) => (query.state.error ? 30000 : statusPollMs(query.state.data)),
  })
  const kept = useQuery({ queryKey: queryKeys.keptProducts(null), queryFn: () => catalogSyncApi.getKeptProducts(), retry: false, refetchInterval: 60_000 })
  const { view } = useCatalogSyncProgress()

  // When a run ends, the product list above holds stale pages: refresh the dashboard's product
  // queries (same QueryClient) so synced products appear without a reload.
  const lastRunId = status.data?.last_run?.id ?? null
  const seenRunId = useRef<string | null | undefined>(undefined)
  useEffect(() => {
    if (seenRunId.current !== undefined && lastRunId && lastRunId !== seenRunId.current) {
      queryClient.invalidateQueries({ queryKey: ["products"] })
    }
    if (status.data) seenRunId.current = lastRunId
  }, [lastRunId, status.data, queryClient])

  const open = (
    <Button size="small" variant="secondary" asChild>
      <Link to="/catalog-sync" data-testid="catalog-sync-list-open">
        Open catalog sync
      </Link>
    </Button>
  )

  if (status.isPending)
    return (
      <Container className="flex items-center justify-between gap-x-3 px-6 py-3" data-testid="catalog-sync-list-widget" aria-busy="true">
        <Text size="small" weight="plus">
          Catalog sync
        </Text>
        {open}
      </Container>
    )

  if (status.isError)
    return (
      <Container className="flex flex-wrap items-center justify-between gap-3 px-6 py-3" data-testid="catalog-sync-list-widget">
        <div className="flex flex-wrap items-center gap-x-3" data-testid="catalog-sync-error" role="alert">
          <Text size="small" weight="plus">
            Catalog sync
          </Text>
          <Text size="small" className="text-ui-fg-subtle">
            The status could not be loaded: {describeError(status.error)}
          </Text>
          <Button size="small" variant="transparent" onClick={() => status.refetch()}>
            Retry
          </Button>
        </div>
        {open}
      </Container>
    )

  const summary = syncSummary(status.data, view, kept.data?.counts ?? null, (iso) => formatRelative(iso))
  return (
    <Container
      className="flex flex-col gap-y-2 px-6 py-3"
      data-testid="catalog-sync-list-widget"
      data-state={status.data.state}
      data-run-id={status.data.last_run?.id ?? ""}
      data-run-status={status.data.last_run?.status ?? ""}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
          <Text size="small" weight="plus">
            Catalog sync
          </Text>
          <StatusBadge color={summary.badge.color} data-testid="catalog-sync-list-state" data-color={summary.badge.color}>
            {summary.badge.label}
          </StatusBadge>
          <Text size="small" className="text-ui-fg-subtle tabular-nums" data-testid="catalog-sync-list-activity">
            {summary.activity}
          </Text>
        </div>
        {open}
      </div>
      {summary.warnings.map((w) => (
        <div key={w.kind} className="flex flex-wrap items-center gap-x-2" data-testid="catalog-sync-list-warning" data-kind={w.kind}>
          <ExclamationCircleSolid className={w.tone === "error" ? "text-ui-fg-error" : "text-ui-tag-orange-icon"} />
          <Text size="small" className="text-ui-fg-base">
            {w.text}
          </Text>
          <Link to={w.href} className="text-ui-fg-interactive txt-small-plus" data-testid="catalog-sync-list-warning-link">
            {w.action}
          </Link>
        </div>
      ))}
    </Container>
  )
}
