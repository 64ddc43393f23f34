import { Badge, Button, Container, Heading, Input, Select, Table, Text } from "@medusajs/ui"
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useEffect, useState } from "react"
import { Link } from "react-router-dom"
import { ErrorState } from "../../../components/error-state"
import { LoadingState } from "../../../components/loading-state"
import { catalogSyncApi, queryKeys } from "../../../lib/api"
import { formatCount } from "../../../lib/format"
import { changeKindLabel, changeRowLabel, changedFields, heldByLockText, isStockOnly, omittedSummary, priceChangeText } from "../../../lib/change-log"
import type { ChangeKind, Run, RunChange } from "../../../lib/types"
import { PagerButtons } from "../../../components/pager-buttons"
import { KeptForOrders } from "./kept-for-orders"

const PAGE_SIZE = 50
const ALL = "all"
const KINDS: ChangeKind[] = ["created", "updated", "removed", "drafted", "rejected"]

/** A run's change log: every product it created, updated, removed, drafted or rejected; searchable, filterable by kind. */
export const ChangeLog = ({ run }: { run: Run }) => {
  const [kind, setKind] = useState<string>(ALL)
  const [typed, setTyped] = useState("")
  const [q, setQ] = useState("")
  const [pageIndex, setPageIndex] = useState(0)
  // Search after a pause in typing, not at every key.
  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(typed.trim())
      setPageIndex(0)
    }, 300)
    return () => clearTimeout(timer)
  }, [typed])
  const live = run.status === "running" || run.status === "queued"
  const query = { kind: kind === ALL ? undefined : kind, q: q || undefined, limit: PAGE_SIZE, offset: pageIndex * PAGE_SIZE }
  const changes = useQuery({
    queryKey: queryKeys.runChanges(run.id, query),
    queryFn: () => catalogSyncApi.getRunChanges(run.id, query),
    placeholderData: keepPreviousData,
    retry: 1,
    refetchInterval: live ? 3000 : false,
  })
  const count = changes.data?.count ?? 0
  const pageCount = Math.max(1, Math.ceil(count / PAGE_SIZE))
  const omitted = changes.data ? omittedSummary(changes.data.omitted) : null

  return (
    <Container className="divide-y p-0" data-testid="catalog-sync-change-log">
      <div className="flex flex-wrap items-center justify-between gap-2 px-6 py-4">
        <div>
          <Heading level="h2">What changed</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Each product this run created, updated, removed, drafted or rejected. Prices are selling prices.
          </Text>
        </div>
        <div className="flex items-center gap-x-2">
          <Input
            size="small"
            type="search"
            placeholder="Title, catalog or product id"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            data-testid="change-log-search"
          />
          <div className="w-[160px]" data-testid="change-log-kind">
            <Select size="small" value={kind} onValueChange={(v) => (setKind(v), setPageIndex(0))}>
              <Select.Trigger aria-label="Kind">
                <Select.Value />
              </Select.Trigger>
              <Select.Content>
                <Select.Item value={ALL}>All changes</Select.Item>
                {KINDS.map((k) => (
                  <Select.Item key={k} value={k}>
                    {/* The log stores a stock-only product as an update: the filter says it finds both. */}
                    {k === "updated" ? "Updated and stock only" : changeKindLabel(k)}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select>
          </div>
        </div>
      </div>
      <KeptForOrders runId={run.id} />
      {changes.isPending ? (
        <LoadingState rows={4} />
      ) : changes.isError ? (
        <ErrorState what="The change log" error={changes.error} onRetry={() => changes.refetch()} />
      ) : changes.data.changes.length === 0 ? (
        <div className="px-6 py-4" data-testid="change-log-empty">
          <Text size="small" className="text-ui-fg-subtle">
            {q || kind !== ALL ? "No change matches." : live ? "Nothing changed yet." : "This run recorded no product changes."}
          </Text>
        </div>
      ) : (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Product</Table.HeaderCell>
              <Table.HeaderCell>Change</Table.HeaderCell>
              <Table.HeaderCell>What</Table.HeaderCell>
              <Table.HeaderCell className="text-right">Price</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {changes.data.changes.map((change) => (
              <ChangeRow key={change.id} change={change} />
            ))}
          </Table.Body>
        </Table>
      )}
      {(count > PAGE_SIZE || omitted) && (
        <div className="flex items-center justify-between gap-2 px-6 py-3">
          <Text size="xsmall" className="text-ui-fg-subtle" data-testid="change-log-omitted">
            {count > PAGE_SIZE ? `Page ${pageIndex + 1} of ${pageCount} · ${formatCount(count)} changes. ` : ""}
            {omitted ? `Not listed one by one (the log keeps a run's first rows only): ${omitted}. The run's counts include them.` : ""}
          </Text>
          {count > PAGE_SIZE && <PagerButtons pageIndex={pageIndex} pageCount={pageCount} setPageIndex={setPageIndex} />}
        </div>
      )}
    </Container>
  )
}

const KIND_COLORS: Record<ChangeKind, "green" | "blue" | "red" | "orange" | "grey"> = {
  created: "green",
  updated: "blue",
  removed: "red",
  drafted: "orange",
  rejected: "red",
}

const ChangeRow = ({ change }: { change: RunChange }) => (
  <Table.Row
    data-testid="change-log-row"
    data-kind={change.kind}
    data-catalog-id={change.catalog_id ?? ""}
    data-price-before={change.price_before ?? ""}
    data-price-after={change.price_after ?? ""}
  >
    <Table.Cell className="whitespace-normal">
      {change.product_id && change.kind !== "removed" ? (
        <Link to={`/products/${change.product_id}`} className="text-ui-fg-interactive">
          {change.title || change.product_id}
        </Link>
      ) : (
        <span>{change.title || "—"}</span>
      )}
      <span className="text-ui-fg-muted block font-mono text-xs">catalog {change.catalog_id ?? "unknown"}</span>
    </Table.Cell>
    <Table.Cell>
      <Badge size="2xsmall" color={isStockOnly(change) ? "grey" : KIND_COLORS[change.kind]} data-testid="change-log-kind-label">
        {changeRowLabel(change)}
      </Badge>
    </Table.Cell>
    <Table.Cell className="whitespace-normal">
      {change.reason ?? (changedFields(change).join(", ") || (change.held ? "" : "—"))}
      {heldByLockText(change.held) ? (
        <span data-testid="change-log-held">
          {changedFields(change).length ? "; " : ""}
          {heldByLockText(change.held)}
        </span>
      ) : null}
    </Table.Cell>
    <Table.Cell className="text-right tabular-nums">
      {change.price_before || change.price_after ? <span data-testid="change-log-price">{priceChangeText(change.price_before, change.price_after)}</span> : "—"}
    </Table.Cell>
  </Table.Row>
)
