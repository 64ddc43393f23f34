// The products the catalog no longer has that the shop keeps, in one list with counts: those whose
// removal the admin discarded at a pause (with a one-click Remove, through the plugin's normal
// removal) and those kept for an open order (they go by themselves once nothing is reserved).
// Its own section on the sync page (not between the runs' filters and their table). Renders
// nothing when the shop keeps none.
import { Button, Container, Heading, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Link } from "react-router-dom"
import { catalogSyncApi, queryKeys } from "../../../lib/api"
import { productPagePath } from "../../../lib/brake"
import { describeError } from "../../../lib/errors"
import { ShowAllToggle, useShowAll } from "../../../components/show-all-toggle"
import { formatCount, formatDateTime } from "../../../lib/format"
import { keptCountsText, keptFateText } from "../../../lib/kept-products"
import type { KeptProduct } from "../../../lib/types"

export const KeptProducts = () => {
  const queryClient = useQueryClient()
  const prompt = usePrompt()
  const kept = useQuery({ queryKey: queryKeys.keptProducts(null), queryFn: () => catalogSyncApi.getKeptProducts(), retry: 1, refetchInterval: 15_000 })
  const remove = useMutation({
    mutationFn: (catalogId: string) => catalogSyncApi.removeKeptProduct(catalogId),
    onSuccess: () => {
      toast.success("Removal queued: a sync removes it now")
      queryClient.invalidateQueries({ queryKey: queryKeys.all })
    },
    onError: (error) => toast.error("The product was not removed", { description: describeError(error) }),
  })
  const data = kept.data
  const rows = useShowAll(data?.products ?? [])
  if (!data || data.counts.total === 0) return null
  const ask = async (p: KeptProduct) => {
    const ok = await prompt({
      title: "Remove this product?",
      description: `"${p.title ?? p.product_id}" is removed from the shop as the sync removes products the catalog no longer has (an open order keeps what it reserved).`,
      confirmText: "Remove",
      cancelText: "Cancel",
    })
    if (ok && p.catalog_id) remove.mutate(p.catalog_id)
  }
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
                {p.reason === "discarded" && p.catalog_id ? (
                  <Button size="small" variant="secondary" disabled={remove.isPending} onClick={() => ask(p)} data-testid="catalog-sync-kept-product-remove">
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
