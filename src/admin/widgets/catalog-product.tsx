import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminProduct, DetailWidgetProps } from "@medusajs/framework/types"
import { Container, Heading, StatusBadge, Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { KeyValue } from "../components/key-value"
import { catalogSyncApi, queryKeys } from "../lib/api"
import { sdk } from "../lib/sdk"
import { describeError } from "../lib/errors"
import { formatDateTime, formatRelative } from "../lib/format"
import { humanize } from "../lib/status"

/** Where a product came from in the catalog; renders nothing for the shop's own products. */
const CatalogProductWidget = ({ data: product }: DetailWidgetProps<AdminProduct>) => {
  const link = useQuery({
    queryKey: queryKeys.productLink(product.id),
    queryFn: () => catalogSyncApi.getProductLink(product.id),
    retry: 1,
  })

  // Brand and model come through the fidelity links; absent links just show nothing.
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
    enabled: !!link.data?.link,
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

  const color = info.status === "active" ? "green" : info.status === "draft" ? "orange" : "grey"
  return (
    <Container className="divide-y p-0" data-testid="catalog-product-widget">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">Catalog</Heading>
        <StatusBadge color={color}>{humanize(info.status)}</StatusBadge>
      </div>
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
      <KeyValue label="Last synced">
        {info.synced_at ? `${formatRelative(info.synced_at)} · ${formatDateTime(info.synced_at)}` : "—"}
      </KeyValue>
    </Container>
  )
}

export const config = defineWidgetConfig({
  zone: "product.details.side.after",
})

export default CatalogProductWidget
