// The removed sizes and products the shop still holds because an open order reserved them: each
// named, with when it goes (docs/open-orders.md). With a run: what that run kept; without: every
// one kept now. Collapsed to its first rows with "Show all N" (N the server's count of every one),
// expanded a page at a time. Renders nothing when there is none.
import { Container, Text } from "@medusajs/ui"
import { keepPreviousData, useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { Link } from "react-router-dom"
import { catalogSyncApi, queryKeys } from "../../../lib/api"
import { keptForOrderRow, keptForOrdersCountText } from "../../../lib/change-log"
import { productPagePath } from "../../../lib/brake"
import { formatCount } from "../../../lib/format"
import { COLLAPSED_ROWS } from "../../../lib/show-all"
import { PagerButtons } from "../../../components/pager-buttons"
import { ShowAllToggle } from "../../../components/show-all-toggle"

/** Rows an expanded list shows at a time. */
const PAGE_ROWS = 50

export const KeptForOrders = ({ runId }: { runId?: string }) => {
  const [expanded, setExpanded] = useState(false)
  const [pageIndex, setPageIndex] = useState(0)
  const limit = expanded ? PAGE_ROWS : COLLAPSED_ROWS
  const offset = expanded ? pageIndex * PAGE_ROWS : 0
  const kept = useQuery({
    queryKey: [...queryKeys.keptForOrders(runId ?? null), limit, offset],
    queryFn: () => catalogSyncApi.getKeptForOrders({ runId, limit, offset }),
    placeholderData: keepPreviousData,
    retry: 1,
  })
  const rows = kept.data?.kept ?? []
  const count = kept.data?.count ?? 0
  // Where the rows on screen start: the answer's own offset (the last page stays shown while the next loads).
  const shownFrom = kept.data?.offset ?? 0
  if (!count) return null
  const pageCount = Math.ceil(count / PAGE_ROWS)
  const list = (
    <div className="flex flex-col gap-y-1 px-6 py-3" data-testid="catalog-sync-kept-for-orders" data-count={count} data-offset={shownFrom}>
      <Text size="small" weight="plus">
        {runId ? "Kept for open orders by this run" : "Kept for open orders"}
        <span className="text-ui-fg-subtle font-normal" data-testid="catalog-sync-kept-for-orders-count">
          {" "}
          · {keptForOrdersCountText(count, kept.data?.counts)} · each goes once its order is fulfilled or cancelled
        </span>
      </Text>
      <ul className="flex flex-col gap-y-0.5">
        {rows.map((k, index) => {
          const line = keptForOrderRow(k)
          return (
            <li
              // Its place in the whole list: two sizes of one product may read alike (an unnamed size).
              key={`${shownFrom + index}-${k.kind}-${k.product_id}`}
              data-testid="catalog-sync-kept-for-order"
              data-kind={k.kind}
              data-product-id={k.product_id}
              data-catalog-id={k.catalog_id ?? ""}
            >
              <Text size="small" className="text-ui-fg-subtle">
                <Link to={productPagePath(k.product_id)} className="text-ui-fg-interactive">
                  {line.name}
                </Link>
                {line.what}
              </Text>
            </li>
          )
        })}
      </ul>
      {expanded && pageCount > 1 && (
        <div className="flex items-center justify-between gap-x-2 pt-1">
          <Text size="xsmall" className="text-ui-fg-subtle tabular-nums" data-testid="catalog-sync-kept-for-orders-page">
            {formatCount(shownFrom + 1)}–{formatCount(Math.min(shownFrom + rows.length, count))} of {formatCount(count)}
          </Text>
          <PagerButtons pageIndex={pageIndex} pageCount={pageCount} setPageIndex={setPageIndex} testIdPrefix="catalog-sync-kept-for-orders" />
        </div>
      )}
      <ShowAllToggle
        total={count}
        expanded={expanded}
        toggle={() => {
          setExpanded((e) => !e)
          setPageIndex(0)
        }}
        testId="catalog-sync-kept-for-orders-show-all"
      />
    </div>
  )
  // Shop-wide it is a section of the sync page; a run's list sits inside that run's change log.
  return runId ? list : <Container className="p-0">{list}</Container>
}
