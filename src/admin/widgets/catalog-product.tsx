import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminProduct, DetailWidgetProps } from "@medusajs/framework/types"
import { Container, Heading, StatusBadge, Table, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { Link } from "react-router-dom"
import { KeyValue } from "../components/key-value"
import { FieldLocksPanel } from "../components/field-locks-panel"
import { catalogSyncApi, queryKeys } from "../lib/api"
import { sdk } from "../lib/sdk"
import { changeRowLabel, changedFields, heldByLockText, priceChangeText } from "../lib/change-log"
import { describeError } from "../lib/errors"
import { formatDateTime, formatRelative, formatUah } from "../lib/format"
import {
  KEPT_SIZE_MARK,
  MANAGED_FIELDS,
  belowCostNote,
  catalogBadge,
  draftReason,
  keptSizesNote,
  lastChangeLabel,
  markupText,
  type SizePrice,
} from "../lib/product-story"
import { keptLine } from "../lib/kept-products"

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
  const last = changes.data?.changes?.[0] ?? null
  const keptFor = keptBy
  return (
    <Container className="divide-y p-0" data-testid="catalog-product-widget">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">Catalog</Heading>
        <StatusBadge color={badge.color} data-testid="catalog-product-badge">
          {badge.label}
        </StatusBadge>
      </div>
      {keptFor && (
        <div className="px-6 py-3" data-testid="catalog-product-kept" data-reason={keptFor.reason}>
          <Text size="small">{keptLine(keptFor, formatDateTime)}</Text>
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
                  <Table.Cell>
                    {s.size || "—"}
                    {s.kept_for_order && (
                      <Text
                        as="span"
                        size="xsmall"
                        className="text-ui-fg-subtle block"
                        data-testid="catalog-product-size-kept"
                        title={formatDateTime(s.kept_for_order.since)}
                      >
                        {KEPT_SIZE_MARK}
                      </Text>
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
      <KeyValue label={last ? lastChangeLabel(last) : "Last catalog change"} testId="catalog-product-last-change">
        {last ? (
          <span>
            {changeRowLabel(last)}
            {changedFields(last).length ? ` (${changedFields(last).join(", ")})` : ""}
            {last.price_before || last.price_after ? ` · ${priceChangeText(last.price_before, last.price_after)}` : ""}
            {heldByLockText(last.held) ? ` · ${heldByLockText(last.held)}` : ""}
            {" · "}
            <Link to={`/settings/catalog-sync/runs/${last.run_id}`} className="text-ui-fg-interactive">
              {formatRelative(last.created_at)}
            </Link>
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
