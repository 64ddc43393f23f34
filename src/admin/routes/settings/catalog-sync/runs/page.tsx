import { Button, Container, Heading, StatusBadge, Table, Text } from "@medusajs/ui"
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { Link, useNavigate } from "react-router-dom"
import { ErrorState } from "../../../../components/error-state"
import { LoadingState } from "../../../../components/loading-state"
import { catalogSyncApi, queryKeys } from "../../../../lib/api"
import { formatCount, formatDateTime, formatDuration, runDurationMs } from "../../../../lib/format"
import { modeLabel, runStatusBadge, triggerLabel } from "../../../../lib/status"

const PAGE_SIZE = 20

/** Every sync run, newest first: trigger, duration, counts and status. */
const CatalogSyncRunsPage = () => {
  const navigate = useNavigate()
  const [pageIndex, setPageIndex] = useState(0)
  const runs = useQuery({
    queryKey: queryKeys.runs(PAGE_SIZE, pageIndex * PAGE_SIZE),
    queryFn: () => catalogSyncApi.listRuns(PAGE_SIZE, pageIndex * PAGE_SIZE),
    placeholderData: keepPreviousData,
    retry: 1,
    // A run in progress updates its row.
    refetchInterval: (query) =>
      query.state.data?.runs.some((run) => run.status === "running" || run.status === "queued") ? 3000 : false,
  })

  const count = runs.data?.count ?? 0
  const pageCount = Math.max(1, Math.ceil(count / PAGE_SIZE))

  return (
    <Container className="divide-y p-0" data-testid="catalog-sync-runs">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h1">Sync runs</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            What each catalog sync did. Open a run to see the products it rejected and why.
          </Text>
        </div>
        <Button size="small" variant="secondary" asChild>
          <Link to="/settings/catalog-sync">Settings</Link>
        </Button>
      </div>
      {runs.isPending ? (
        <LoadingState rows={5} />
      ) : runs.isError ? (
        <ErrorState what="The run history" error={runs.error} onRetry={() => runs.refetch()} />
      ) : runs.data.runs.length === 0 ? (
        <div className="px-6 py-8" data-testid="catalog-sync-runs-empty">
          <Text size="small" className="text-ui-fg-subtle">
            No runs yet. Start one with "Sync now" above the product list, or wait for the schedule.
          </Text>
        </div>
      ) : (
        <>
          <div className="overflow-x-auto">
            <Table>
              <Table.Header>
                <Table.Row>
                  <Table.HeaderCell>Started</Table.HeaderCell>
                  <Table.HeaderCell>Status</Table.HeaderCell>
                  <Table.HeaderCell>Trigger</Table.HeaderCell>
                  <Table.HeaderCell>Mode</Table.HeaderCell>
                  <Table.HeaderCell>Duration</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">Read</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">Created</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">Updated</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">Stock only</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">Unchanged</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">Removed</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">Rejected</Table.HeaderCell>
                  <Table.HeaderCell className="text-right">Requests</Table.HeaderCell>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {runs.data.runs.map((run) => {
                  const badge = runStatusBadge(run.status)
                  return (
                    <Table.Row
                      key={run.id}
                      className="cursor-pointer"
                      data-testid="catalog-sync-run-row"
                      data-status={run.status}
                      onClick={() => navigate(`/settings/catalog-sync/runs/${run.id}`)}
                    >
                      <Table.Cell>{formatDateTime(run.started_at ?? run.created_at)}</Table.Cell>
                      <Table.Cell>
                        <StatusBadge color={badge.color}>{badge.label}</StatusBadge>
                      </Table.Cell>
                      <Table.Cell>{triggerLabel(run.trigger)}</Table.Cell>
                      <Table.Cell>{modeLabel(run.mode)}</Table.Cell>
                      <Table.Cell>{formatDuration(runDurationMs(run))}</Table.Cell>
                      <Table.Cell className="text-right">{formatCount(run.items_seen)}</Table.Cell>
                      <Table.Cell className="text-right">{formatCount(run.created)}</Table.Cell>
                      <Table.Cell className="text-right">{formatCount(run.updated)}</Table.Cell>
                      <Table.Cell className="text-right">{formatCount(run.stock_only)}</Table.Cell>
                      <Table.Cell className="text-right">{formatCount(run.unchanged)}</Table.Cell>
                      <Table.Cell className="text-right">{formatCount(run.removed + (run.swept ?? 0))}</Table.Cell>
                      <Table.Cell className="text-right">{formatCount(run.skipped)}</Table.Cell>
                      <Table.Cell className="text-right">{formatCount(run.requests_used)}</Table.Cell>
                    </Table.Row>
                  )
                })}
              </Table.Body>
            </Table>
          </div>
          <Table.Pagination
            count={count}
            pageSize={PAGE_SIZE}
            pageIndex={pageIndex}
            pageCount={pageCount}
            canPreviousPage={pageIndex > 0}
            canNextPage={pageIndex + 1 < pageCount}
            previousPage={() => setPageIndex((index) => Math.max(0, index - 1))}
            nextPage={() => setPageIndex((index) => Math.min(pageCount - 1, index + 1))}
          />
        </>
      )}
    </Container>
  )
}

export default CatalogSyncRunsPage
