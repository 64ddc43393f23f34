// The products the catalog no longer has that the shop keeps, in one list with counts: those whose
// removal the admin discarded at a pause (with a one-click Remove, through the plugin's normal
// removal) and those kept for an open order (they go by themselves once nothing is reserved).
// Its own section on the sync page (not between the runs' filters and their table). Renders
// nothing when the shop keeps none.
import { Button, Container, Heading, Table, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { Link } from "react-router-dom"
import { catalogSyncApi, queryKeys } from "../../../lib/api"
import { productPagePath } from "../../../lib/brake"
import { ShowAllToggle, useShowAll } from "../../../components/show-all-toggle"
import { formatCount, formatDateTime } from "../../../lib/format"
import { keptCountsText, keptFateText } from "../../../lib/kept-products"
import { canRemoveKept } from "../../../lib/remove-kept"
import { syncStartRefusal } from "../../../lib/status"
import { useRemoveKeptProduct } from "../../../lib/use-remove-kept"

export const KeptProducts = () => {
  const kept = useQuery({ queryKey: queryKeys.keptProducts(null), queryFn: () => catalogSyncApi.getKeptProducts(), retry: 1, refetchInterval: 15_000 })
  // The one Remove (prompt, call, toast), shared with the product's widget.
  const { ask, isPending: removing } = useRemoveKeptProduct()
  // Remove queues a run: refused, as Sync now is, while no run can start (after a Disconnect, say).
  const status = useQuery({ queryKey: queryKeys.status, queryFn: catalogSyncApi.getStatus, retry: 1 })
  const refusal = status.data ? syncStartRefusal(status.data) : null
  const data = kept.data
  const rows = useShowAll(data?.products ?? [])
  if (!data || data.counts.total === 0) return null
  return (
    <Container
      className="flex flex-col gap-y-2 p-0 pb-3"
      data-testid="catalog-sync-kept-products"
      data-total={data.counts.total}
      data-discarded={data.counts.discarded}
      data-open-order={data.counts.open_order}
    >
      <div className="px-6 pt-4">
        <Heading level="h2">Kept products</Heading>
        <Text size="small" className="text-ui-fg-subtle" data-testid="catalog-sync-kept-products-counts">
          {keptCountsText(data.counts, formatCount)}. {keptFateText(data.counts)}
        </Text>
        {refusal && data.counts.discarded > 0 && (
          <Text size="small" className="text-ui-fg-subtle" data-testid="catalog-sync-kept-products-remove-refusal">
            Remove is unavailable now: {refusal}
          </Text>
        )}
      </div>
      <Table>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>Product</Table.HeaderCell>
            <Table.HeaderCell>Why kept</Table.HeaderCell>
            <Table.HeaderCell>Gone from the catalog since</Table.HeaderCell>
            <Table.HeaderCell />
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.shown.map((p) => (
            <Table.Row key={`${p.reason}-${p.product_id}`} data-testid="catalog-sync-kept-product" data-catalog-id={p.catalog_id ?? ""} data-reason={p.reason}>
              <Table.Cell>
                <Link to={productPagePath(p.product_id)} className="text-ui-fg-interactive">
                  {p.title ?? "(untitled)"}
                </Link>
              </Table.Cell>
              <Table.Cell>{p.reason === "discarded" ? "You discarded its removal" : "An open order"}</Table.Cell>
              <Table.Cell>{formatDateTime(p.since)}</Table.Cell>
              <Table.Cell className="text-right">
                {canRemoveKept(p) ? (
                  <Button
                    size="small"
                    variant="secondary"
                    disabled={removing || !status.data || refusal !== null}
                    onClick={() => ask(p)}
                    data-testid="catalog-sync-kept-product-remove"
                  >
                    Remove
                  </Button>
                ) : null}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table>
      <ShowAllToggle total={data.counts.total} expanded={rows.expanded} toggle={rows.toggle} testId="catalog-sync-kept-products-show-all" className="px-6" />
    </Container>
  )
}
