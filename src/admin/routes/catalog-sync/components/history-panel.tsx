import { Button, Container, Heading, Select, StatusBadge, Table, Text } from "@medusajs/ui"
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { Link, useNavigate } from "react-router-dom"
import { ErrorState } from "../../../components/error-state"
import { LoadingState } from "../../../components/loading-state"
import { catalogSyncApi, queryKeys } from "../../../lib/api"
import { formatCount, formatDateTime, formatDuration, runDurationMs } from "../../../lib/format"
import { HISTORY_COUNT_FIELDS, barHeights, browserTimeZone, quietLabel, quietSpan, shortDay } from "../../../lib/history"
import { modeLabel, runBadge, triggerLabel } from "../../../lib/status"
import type { HistoryPage, HistoryRow, Run } from "../../../lib/types"
import { runDisplayState } from "../../../../sync/run-display-state"
import { STATE_NAMES } from "../../../../sync/state-names"
import { PagerButtons } from "../../../components/pager-buttons"

const PAGE_SIZE = 20
const ALL = "all"

/**
 * The run history made readable: quiet polls folded into one row per day, filters by status,
 * trigger and "had changes" (applied on the server, which sees every run of a day), and a
 * chart of products changed per day over the last 30 days.
 */
export const HistoryPanel = ({ runHref }: { runHref: (id: string) => string }) => {
  const navigate = useNavigate()
  const [pageIndex, setPageIndex] = useState(0)
  const [status, setStatus] = useState(ALL)
  const [trigger, setTrigger] = useState(ALL)
  const [changes, setChanges] = useState(ALL)
  const query = {
    days: 30,
    tz: browserTimeZone(),
    limit: PAGE_SIZE,
    offset: pageIndex * PAGE_SIZE,
    status: status === ALL ? undefined : status,
    trigger: trigger === ALL ? undefined : trigger,
    had_changes: changes === ALL ? undefined : (changes as "true" | "false"),
  }
  const history = useQuery({
    queryKey: queryKeys.history(query),
    queryFn: () => catalogSyncApi.getHistory(query),
    placeholderData: keepPreviousData,
    retry: 1,
    refetchInterval: (q) => (q.state.data?.rows.some((r) => r.type === "run" && (r.run.status === "running" || r.run.status === "queued")) ? 3000 : false),
  })
  const filter = (set: (v: string) => void) => (value: string) => {
    set(value)
    setPageIndex(0)
  }
  const count = history.data?.count ?? 0
  const pageCount = Math.max(1, Math.ceil(count / PAGE_SIZE))

  return (
    <div className="flex flex-col gap-y-3">
      <Container className="divide-y p-0" data-testid="catalog-sync-chart">
        <div className="px-6 py-4">
          <Heading level="h2">Products changed per day</Heading>
          <Text size="small" className="text-ui-fg-subtle" data-testid="catalog-sync-chart-summary">
            {history.data
              ? `${formatCount(changedIn(history.data.per_day))} products changed in the last 30 days: created, updated, restocked or removed (days in ${history.data.time_zone}).`
              : "Created, updated, restocked and removed, last 30 days."}
          </Text>
        </div>
        {history.data ? <ChangesChart perDay={history.data.per_day} /> : <LoadingState rows={1} />}
      </Container>
      <Container className="divide-y p-0" data-testid="catalog-sync-runs">
        <div className="flex flex-wrap items-center justify-between gap-2 px-6 py-4">
          <div>
            <Heading level="h2">Sync runs</Heading>
            <Text size="small" className="text-ui-fg-subtle">
              Last 30 days, newest first. Scheduled polls that changed nothing are folded into one row per day.
            </Text>
          </div>
          <div className="flex flex-wrap items-center gap-2" data-testid="catalog-sync-history-filters">
            <FilterSelect
              label="Status"
              value={status}
              onChange={filter(setStatus)}
              testId="history-filter-status"
              options={[
                [ALL, "Any status"],
                ["succeeded", "Succeeded"],
                ["failed", "Failed"],
                ["interrupted", "Interrupted"],
                ["running", "Running"],
                ["paused", "Paused"],
                ["queued", STATE_NAMES.queued.label],
              ]}
            />
            <FilterSelect
              label="Trigger"
              value={trigger}
              onChange={filter(setTrigger)}
              testId="history-filter-trigger"
              options={[
                [ALL, "Any trigger"],
                ["schedule", "Scheduled"],
                ["manual", "Manual"],
                ["settings", "Settings change"],
                ["retry", "Retry"],
              ]}
            />
            <FilterSelect
              label="Changes"
              value={changes}
              onChange={filter(setChanges)}
              testId="history-filter-changes"
              options={[
                [ALL, "With or without changes"],
                ["true", "Had changes"],
                ["false", "No changes"],
              ]}
            />
          </div>
        </div>
        {history.isPending ? (
          <LoadingState rows={5} />
        ) : history.isError ? (
          <ErrorState what="The run history" error={history.error} onRetry={() => history.refetch()} />
        ) : history.data.rows.length === 0 ? (
          <div className="px-6 py-4" data-testid="catalog-sync-runs-empty">
            <Text size="small" className="text-ui-fg-subtle">
              {status !== ALL || trigger !== ALL || changes !== ALL ? "No run matches these filters." : "No sync has run yet."}
            </Text>
          </div>
        ) : (
          <HistoryTable page={history.data} onOpen={(id) => navigate(runHref(id))} runHref={runHref} />
        )}
        {count > PAGE_SIZE && (
          <div className="flex items-center justify-between px-6 py-3">
            <Text size="small" className="text-ui-fg-subtle">
              Page {pageIndex + 1} of {pageCount} · {formatCount(count)} rows
            </Text>
            <PagerButtons pageIndex={pageIndex} pageCount={pageCount} setPageIndex={setPageIndex} />
          </div>
        )}
      </Container>
    </div>
  )
}

const FilterSelect = ({
  label,
  value,
  onChange,
  options,
  testId,
}: {
  label: string
  value: string
  onChange: (v: string) => void
  options: [string, string][]
  testId: string
}) => (
  <div className="w-[210px]" data-testid={testId}>
    <Select size="small" value={value} onValueChange={onChange}>
      <Select.Trigger aria-label={label}>
        <Select.Value />
      </Select.Trigger>
      <Select.Content>
        {options.map(([v, text]) => (
          <Select.Item key={v} value={v}>
            {text}
          </Select.Item>
        ))}
      </Select.Content>
    </Select>
  </div>
)

const changedIn = (perDay: HistoryPage["per_day"]) => perDay.reduce((sum, d) => sum + d.changed, 0)

/**
 * Plain div bars: one per day, as tall as its share of the busiest day, on a drawn baseline. The
 * axis carries only its first and last day; the total is said in the card's header, not on the axis.
 */
const ChangesChart = ({ perDay }: { perDay: HistoryPage["per_day"] }) => {
  const heights = barHeights(perDay.map((d) => d.changed))
  const total = changedIn(perDay)
  return (
    <div className="flex flex-col gap-y-1.5 px-6 py-4">
      <div
        className="border-ui-border-strong flex h-24 items-end gap-x-[2px] border-b"
        role="img"
        aria-label={`${formatCount(total)} products changed in ${perDay.length} days`}
        data-testid="catalog-sync-chart-bars"
      >
        {perDay.map((d, i) => (
          <div
            key={d.day}
            className="flex h-full flex-1 items-end"
            title={`${shortDay(d.day)}: ${formatCount(d.changed)} products changed in ${formatCount(d.runs)} runs`}
            data-testid="catalog-sync-chart-bar"
            data-day={d.day}
            data-changed={d.changed}
          >
            <div
              className="w-full rounded-t-sm"
              style={{
                height: `${heights[i]}%`,
                minHeight: d.runs > 0 ? 1 : 0,
                backgroundColor: d.changed > 0 ? "var(--tag-blue-icon)" : "var(--border-base)",
              }}
            />
          </div>
        ))}
      </div>
      <div className="flex justify-between" data-testid="catalog-sync-chart-axis">
        <Text size="xsmall" className="text-ui-fg-muted">
          {perDay[0] ? shortDay(perDay[0].day) : ""}
        </Text>
        <Text size="xsmall" className="text-ui-fg-muted">
          {perDay.length ? shortDay(perDay[perDay.length - 1].day) : ""}
        </Text>
      </div>
    </div>
  )
}

const HistoryTable = ({ page, onOpen, runHref }: { page: HistoryPage; onOpen: (id: string) => void; runHref: (id: string) => string }) => (
  <Table>
    <Table.Header>
      <Table.Row>
        <Table.HeaderCell>Started</Table.HeaderCell>
        <Table.HeaderCell>Trigger</Table.HeaderCell>
        <Table.HeaderCell>Mode</Table.HeaderCell>
        <Table.HeaderCell>Status</Table.HeaderCell>
        <Table.HeaderCell>Duration</Table.HeaderCell>
        {HISTORY_COUNT_FIELDS.map(({ key, label }) => (
          <Table.HeaderCell key={key} className="text-right">
            {label}
          </Table.HeaderCell>
        ))}
      </Table.Row>
    </Table.Header>
    <Table.Body>
      {page.rows.map((row) =>
        row.type === "run" ? (
          <RunRow key={row.run.id} run={row.run} onOpen={onOpen} href={runHref(row.run.id)} />
        ) : (
          <QuietRow key={`quiet-${row.day}`} row={row} />
        )
      )}
    </Table.Body>
  </Table>
)

const RunRow = ({ run, onOpen, href }: { run: Run; onOpen: (id: string) => void; href: string }) => {
  const badge = runBadge(run)
  return (
    <Table.Row
      className="cursor-pointer"
      onClick={() => onOpen(run.id)}
      data-testid="catalog-sync-run-row"
      data-run-id={run.id}
      data-state={runDisplayState(run).state}
      data-status={run.status}
      data-trigger={run.trigger}
      data-mode={run.mode}
    >
      <Table.Cell>
        <Link to={href} onClick={(e) => e.stopPropagation()}>
          {formatDateTime(run.started_at ?? run.created_at)}
        </Link>
      </Table.Cell>
      <Table.Cell>{triggerLabel(run.trigger, run)}</Table.Cell>
      <Table.Cell>{modeLabel(run.mode)}</Table.Cell>
      <Table.Cell>
        <StatusBadge color={badge.color} data-testid="catalog-sync-run-state">
          {badge.label}
        </StatusBadge>
      </Table.Cell>
      <Table.Cell>{formatDuration(runDurationMs(run))}</Table.Cell>
      {/* Updated and Stock only apart, as the Last run card, the run page and the chip count them. */}
      {HISTORY_COUNT_FIELDS.map(({ key, value }) => (
        <Table.Cell key={key} className="text-right" data-testid={`catalog-sync-run-${key}`}>
          {formatCount(value(run))}
        </Table.Cell>
      ))}
    </Table.Row>
  )
}

const QuietRow = ({ row }: { row: Extract<HistoryRow, { type: "quiet" }> }) => (
  <Table.Row data-testid="catalog-sync-quiet-row" data-day={row.day} data-count={row.count}>
    <Table.Cell>{shortDay(row.day)}</Table.Cell>
    {/* A plain cell: @medusajs/ui's Table.Cell does not take colSpan. */}
    <td colSpan={4 + HISTORY_COUNT_FIELDS.length} className="h-12 py-0 pe-6 ps-0">
      <Text size="small" className="text-ui-fg-subtle">
        {quietLabel(row.count)} · {quietSpan(row.first_at, row.last_at, (iso) => formatDateTime(iso).split(", ")[1] ?? "")}
      </Text>
    </td>
  </Table.Row>
)
