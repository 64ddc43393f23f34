import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminProduct, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Container, Heading, StatusBadge, Table, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { Link } from "react-router-dom"
import { KeyValue } from "../components/key-value"
import { FieldLocksPanel } from "../components/field-locks-panel"
import { catalogSyncApi, queryKeys } from "../lib/api"
import { sdk } from "../lib/sdk"
import { describeError } from "../lib/errors"
import { formatDateTime, formatRelative, formatUah } from "../lib/format"
import {
  KEPT_SIZE_BADGE,
  MANAGED_FIELDS,
  REMOVED_FROM_CATALOG,
  belowCostNote,
  catalogBadge,
  draftReason,
  heldPriceSizes,
  keptSizeTitle,
  keptSizesNote,
  lastChangeLabel,
  lastChangeOf,
  lastChangeText,
  markupText,
  type SizePrice,
} from "../lib/product-story"
import { keptLine } from "../lib/kept-products"
import { canRemoveKept } from "../lib/remove-kept"
import { syncStartRefusal } from "../lib/status"
import { useRemoveKeptProduct } from "../lib/use-remove-kept"

/**
 * Where a product came from in the catalog and its price story: selling and crossed-out price
 * per size (a size sold below cost flagged), why it is a draft, the last change (the catalog's, or
 * the shop's pricing rules' for a reprice), and which fields the sync overwrites. Renders nothing for the shop's own products.
 */
/** A size's markup: the figure, red and titled "Below cost" when it sells under its cost. */
const MarkupCell = ({ markupPercent }: { markupPercent: string | null }) => {
  const markup = markupText(markupPercent)
  return (
    <Table.Cell
      className={`text-right whitespace-nowrap tabular-nums${markup.belowCost ? " text-ui-fg-error" : ""}`}
      data-testid="catalog-product-markup"
      data-below-cost={markup.belowCost ? "true" : "false"}
      title={markup.belowCost ? "Below cost" : undefined}
    >
      {markup.text}
    </Table.Cell>
  )
}

const CatalogProductWidget = ({ data: product }: DetailWidgetProps<AdminProduct>) => {
  const link = useQuery({
    queryKey: queryKeys.productLink(product.id),
    queryFn: () => catalogSyncApi.getProductLink(product.id),
    retry: 1,
  })
  const synced = !!link.data?.link

  // Brand and model come through the brand links; absent links just show nothing.
  const brand = useQuery({
    queryKey: [...queryKeys.productLink(product.id), "brand"],
    queryFn: async () => {
      const { product: withBrand } = await sdk.admin.product.retrieve(product.id, {
        fields: "id,+catalog_brand.*,+catalog_brand_model.*",
      })
      const record = withBrand as unknown as {
        catalog_brand?: { name?: string } | null
        catalog_brand_model?: { name?: string } | null
      }
      return { brand: record.catalog_brand?.name ?? null, model: record.catalog_brand_model?.name ?? null }
    },
    enabled: synced,
    retry: false,
  })
  const prices = useQuery({
    queryKey: [...queryKeys.productLink(product.id), "prices"],
    queryFn: () => catalogSyncApi.getProductPrices(product.id),
    enabled: synced,
    retry: false,
  })
  const changes = useQuery({
    queryKey: queryKeys.productChanges(product.id),
    queryFn: () => catalogSyncApi.getProductChanges(product.id),
    enabled: synced,
    retry: false,
  })

  // Whether the shop keeps it though the catalog no longer has it (a discarded removal, an open order).
  const kept = useQuery({
    queryKey: queryKeys.keptProducts(product.id),
    queryFn: () => catalogSyncApi.getKeptProducts(product.id),
    enabled: synced,
    retry: false,
  })
  // The per-size prices the pricing rules would set under a price lock (the same query as FieldLocksPanel).
  const locks = useQuery({
    queryKey: queryKeys.productLocks(product.id),
    queryFn: () => catalogSyncApi.getProductLocks(product.id),
    enabled: synced,
    retry: false,
  })
  const removable = !!kept.data?.products?.[0] && canRemoveKept(kept.data.products[0])
  // Remove queues a run: refused, as "Sync now" is, while no run can start (the sync page's status query).
  const status = useQuery({ queryKey: queryKeys.status, queryFn: catalogSyncApi.getStatus, enabled: removable, retry: 1 })
  const remove = useRemoveKeptProduct()

  if (link.isPending) return null
  if (link.isError) {
    return (
      <Container className="px-6 py-4" data-testid="catalog-product-widget">
        <Heading level="h2">Catalog</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          Catalog details are unavailable: {describeError(link.error)}
        </Text>
      </Container>
    )
  }
  const info = link.data.link
  if (!info) return null

  const sizes: SizePrice[] | null = prices.data?.sizes ?? null
  const keptNote = sizes ? keptSizesNote(sizes) : null
  const belowCost = sizes ? belowCostNote(sizes) : null
  const keptBy = kept.data?.products?.[0] ?? null
  // Not "Synced": the catalog no longer has it.
  const badge = keptBy ? { label: "Kept: not in the catalog", color: "orange" as const } : catalogBadge(product.status, info)
  const reason = draftReason(product.status, info, sizes, keptBy?.reason ?? null)
  const last = lastChangeOf(changes.data?.changes, keptBy)
  const lastRow = last?.kind === "change" ? last.change : null
  const heldPrices = lastRow?.held?.prices
  const heldSizes = lastRow
    ? heldPriceSizes(typeof heldPrices === "string" ? heldPrices : null, locks.data?.locks.fields.find((f) => f.field === "prices")?.catalog_value, sizes)
    : null
  const keptFor = keptBy
  const refusal = removable ? (status.data ? syncStartRefusal(status.data) : null) : null
  const canRemove = removable && !!status.data && refusal === null
  return (
    <Container className="divide-y p-0" data-testid="catalog-product-widget">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">Catalog</Heading>
        <StatusBadge color={badge.color} data-testid="catalog-product-badge">
          {badge.label}
        </StatusBadge>
      </div>
      {keptFor && (
        <div className="flex flex-col gap-y-2 px-6 py-3" data-testid="catalog-product-kept" data-reason={keptFor.reason}>
          <Text size="small">{keptLine(keptFor, formatDateTime)}</Text>
          {canRemoveKept(keptFor) && (
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <Button
                size="small"
                variant="secondary"
                disabled={!canRemove || remove.isPending}
                onClick={() => remove.ask(keptFor)}
                data-testid="catalog-product-remove"
              >
                Remove
              </Button>
              {refusal && (
                <Text size="xsmall" className="text-ui-fg-subtle" data-testid="catalog-product-remove-refusal">
                  {refusal}
                </Text>
              )}
            </div>
          )}
        </div>
      )}
      {reason && (
        <div className="px-6 py-3" data-testid="catalog-product-draft-reason">
          <Text size="small" className="text-ui-fg-subtle">
            {reason}
          </Text>
        </div>
      )}
      <KeyValue label="Catalog id">
        <span className="font-mono break-all">{info.catalog_id}</span>
      </KeyValue>
      <KeyValue label="SKU">{info.sku ?? "—"}</KeyValue>
      {brand.data?.brand && (
        <KeyValue label="Brand">
          {brand.data.brand}
          {brand.data.model ? ` · ${brand.data.model}` : ""}
        </KeyValue>
      )}
      <KeyValue label="Sync version">{info.sync_version ?? "—"}</KeyValue>
      <KeyValue label="Last synced">{info.synced_at ? `${formatRelative(info.synced_at)} · ${formatDateTime(info.synced_at)}` : "—"}</KeyValue>
      <div className="flex flex-col gap-y-2 py-3" data-testid="catalog-product-prices">
        <Text size="small" weight="plus" className="text-ui-fg-subtle px-6">
          Prices per size
        </Text>
        {prices.isPending ? (
          <Text size="small" className="text-ui-fg-muted px-6">
            Loading…
          </Text>
        ) : prices.isError || !sizes ? (
          <Text size="small" className="text-ui-fg-muted px-6">
            Prices could not be loaded.
          </Text>
        ) : (
          <Table>
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>Size</Table.HeaderCell>
                <Table.HeaderCell className="text-right">Shop's price</Table.HeaderCell>
                <Table.HeaderCell className="text-right">Crossed out</Table.HeaderCell>
                <Table.HeaderCell className="text-right">Catalog's cost</Table.HeaderCell>
                <Table.HeaderCell className="text-right">Markup</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {sizes.map((s) => (
                <Table.Row
                  key={s.variant_id}
                  data-testid="catalog-product-size"
                  data-size={s.size}
                  data-selling={s.selling ?? ""}
                  data-crossed-out={s.crossed_out ?? ""}
                  data-cost={s.cost ?? ""}
                  data-markup={s.markup_percent ?? ""}
                  data-kept-for-order={s.kept_for_order ? "true" : "false"}
                >
                  <Table.Cell className="whitespace-nowrap">
                    {s.size || "—"}
                    {/* One word, so the cell stays one line; the line under the table says why. */}
                    {s.kept_for_order && (
                      <Badge
                        size="2xsmall"
                        color="orange"
                        className="ml-1"
                        data-testid="catalog-product-size-kept"
                        title={keptSizeTitle(s.kept_for_order.since, formatDateTime)}
                      >
                        {KEPT_SIZE_BADGE}
                      </Badge>
                    )}
                  </Table.Cell>
                  <Table.Cell className="text-right whitespace-nowrap tabular-nums">{s.selling ? formatUah(s.selling) : "no price"}</Table.Cell>
                  <Table.Cell className="text-right whitespace-nowrap tabular-nums">
                    {s.crossed_out ? <span className="line-through">{formatUah(s.crossed_out)}</span> : "—"}
                  </Table.Cell>
                  <Table.Cell className="text-right whitespace-nowrap tabular-nums">{s.cost ? formatUah(s.cost) : "—"}</Table.Cell>
                  <MarkupCell markupPercent={s.markup_percent} />
                </Table.Row>
              ))}
            </Table.Body>
          </Table>
        )}
        {keptNote && (
          <Text size="xsmall" className="text-ui-fg-subtle px-6" data-testid="catalog-product-kept-sizes">
            {keptNote}
          </Text>
        )}
        {belowCost && (
          <Text size="xsmall" className="text-ui-fg-error px-6" data-testid="catalog-product-below-cost">
            {belowCost}
          </Text>
        )}
        {/* Cost is admin-only: it comes from the plugin's own table through an admin route, never the storefront. */}
        <Text size="xsmall" className="text-ui-fg-muted px-6" data-testid="catalog-product-cost-note">
          {!sizes
            ? null
            : sizes.some((s) => s.cost !== null)
              ? "Catalog's cost: what the catalog charges the shop, shown to admins only. Shop's price: what the storefront sells at, set by your pricing rules (or by you, when prices are locked). Markup: the shop's price over the cost."
              : "Cost and markup: no cost stored for this product yet."}
        </Text>
      </div>
      <KeyValue label={lastRow ? lastChangeLabel(lastRow) : "Last catalog change"} testId="catalog-product-last-change">
        {lastRow ? (
          <span>
            {lastChangeText(lastRow, heldSizes)}
            {" · "}
            <Link to={`/settings/catalog-sync/runs/${lastRow.run_id}`} className="text-ui-fg-interactive">
              {formatRelative(lastRow.created_at)}
            </Link>
          </span>
        ) : last?.kind === "removed" ? (
          <span data-testid="catalog-product-last-change-removed">
            {REMOVED_FROM_CATALOG}
            {" · "}
            {last.run_id ? (
              <Link to={`/settings/catalog-sync/runs/${last.run_id}`} className="text-ui-fg-interactive" title={formatDateTime(last.since)}>
                {formatRelative(last.since)}
              </Link>
            ) : (
              <span title={formatDateTime(last.since)}>{formatRelative(last.since)}</span>
            )}
          </span>
        ) : (
          "—"
        )}
      </KeyValue>
      <div className="px-6 py-3" data-testid="catalog-product-managed">
        <Text size="xsmall" className="text-ui-fg-subtle">
          Managed by the catalog sync: {MANAGED_FIELDS.join(", ")}. Edits to these fields are overwritten at the next sync, unless the field is locked below.
        </Text>
      </div>
      <FieldLocksPanel productId={product.id} />
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "product.details.side.after",
})

export default CatalogProductWidget
