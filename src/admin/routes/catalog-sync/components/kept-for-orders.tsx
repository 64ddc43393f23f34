// The removed sizes and products the shop still holds because an open order reserved them: each
// named, with when it goes (docs/open-orders.md). With a run: what that run kept; without: every
// one kept now. Renders nothing when there is none.
import { Container, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { Link } from "react-router-dom"
import { catalogSyncApi, queryKeys } from "../../../lib/api"
import { keptForOrderParts } from "../../../lib/change-log"
import { productPagePath } from "../../../lib/brake"
import { ShowAllToggle, useShowAll } from "../../../components/show-all-toggle"

export const KeptForOrders = ({ runId }: { runId?: string }) => {
  const kept = useQuery({
    queryKey: queryKeys.keptForOrders(runId ?? null),
    queryFn: () => catalogSyncApi.getKeptForOrders(runId),
    retry: 1,
  })
  const rows = kept.data?.kept ?? []
  const shown = useShowAll(rows)
  if (!rows.length) return null
  const list = (
    <div className="flex flex-col gap-y-1 px-6 py-3" data-testid="catalog-sync-kept-for-orders">
      <Text size="small" weight="plus">
        {runId ? "Kept for open orders by this run" : "Kept for open orders"}
      </Text>
      <ul className="flex flex-col gap-y-0.5">
        {shown.shown.map((k) => {
          const line = keptForOrderParts(k)
          return (
            <li
              key={`${k.kind}-${k.product_id}-${k.size ?? ""}`}
              data-testid="catalog-sync-kept-for-order"
              data-kind={k.kind}
              data-product-id={k.product_id}
              data-catalog-id={k.catalog_id ?? ""}
            >
              <Text size="small" className="text-ui-fg-subtle">
                {line.before}
                <Link to={productPagePath(k.product_id)} className="text-ui-fg-interactive">
                  {line.name}
                </Link>
                {line.after}
              </Text>
            </li>
          )
        })}
      </ul>
      <ShowAllToggle total={rows.length} expanded={shown.expanded} toggle={shown.toggle} testId="catalog-sync-kept-for-orders-show-all" />
    </div>
  )
  // Shop-wide it is a section of the sync page; a run's list sits inside that run's change log.
  return runId ? list : <Container className="p-0">{list}</Container>
}
