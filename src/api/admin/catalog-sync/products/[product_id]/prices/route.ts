// GET /admin/catalog-sync/products/:product_id/prices: selling and crossed-out price per size
// of a synced product, from Medusa's own prices (base price and the plugin's sale list), with
// each size's stored cost and the markup the selling price makes over it.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { catalogSyncService } from "../../../helpers"
import { SALE_PRICE_LIST_SOURCE } from "../../../../../../workflows/extras/sale-prices"
import { claimedByMap } from "../../../../../../modules/catalog_sync/sql/product-map"
import { keptSizesOf, priceStory, type PendingSizeRow, type PriceRow, type VariantRow } from "./price-story"

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const products = req.scope.resolve(Modules.PRODUCT)
  const variants = (await products.listProductVariants(
    { product_id: req.params.product_id },
    { select: ["id", "title", "sku", "variant_rank"], take: null }
  )) as unknown as { id: string; title: string | null; sku: string | null; variant_rank?: number | null }[]
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = variants.length
    ? await query.graph({
        entity: "product_variant_price_set",
        fields: ["variant_id", "price_set_id"],
        filters: { variant_id: variants.map((v) => v.id) },
      } as never)
    : { data: [] }
  const priceSetOf = new Map((links as { variant_id: string; price_set_id: string }[]).map((l) => [l.variant_id, l.price_set_id]))
  // In the shop's variant order: priceStory sorts them (inShopOrder).
  const rows = variants.map((v): VariantRow => ({
    id: v.id,
    title: v.title,
    sku: v.sku,
    price_set_id: priceSetOf.get(v.id) ?? null,
    variant_rank: v.variant_rank ?? null,
  }))
  const priceSetIds = rows.map((r) => r.price_set_id).filter((id): id is string => !!id)
  const pricing = req.scope.resolve(Modules.PRICING)
  const prices = priceSetIds.length
    ? ((await pricing.listPrices(
        { price_set_id: priceSetIds },
        { select: ["id", "price_set_id", "price_list_id", "amount", "raw_amount", "currency_code"], take: null }
      )) as unknown as PriceRow[])
    : []
  const listIds = [...new Set(prices.map((p) => p.price_list_id).filter((id): id is string => !!id))]
  const lists = listIds.length
    ? ((await pricing.listPriceLists({ id: listIds }, { select: ["id", "metadata"], take: null })) as unknown as {
        id: string
        metadata?: Record<string, unknown> | null
      }[])
    : []
  const saleList = lists.find((l) => l.metadata?.source === SALE_PRICE_LIST_SOURCE) ?? null
  const costRows = rows.length
    ? ((await catalogSyncService(req.scope).listCatalogVariantCosts({ variant_id: rows.map((r) => r.id) }, { select: ["variant_id", "cost"], take: null })) as {
        variant_id: string | null
        cost: string | null
      }[])
    : []
  const costs = new Map(costRows.filter((c) => c.variant_id).map((c) => [c.variant_id as string, c.cost]))
  // Sizes the catalog removed that the shop keeps while an open order reserves them (as GET /kept-for-orders tells them).
  const pending = (await (
    catalogSyncService(req.scope) as unknown as { listCatalogPendingRemovals(filter: object, config: object): Promise<PendingSizeRow[]> }
  ).listCatalogPendingRemovals({ kind: "size", product_id: req.params.product_id }, { take: null })) as PendingSizeRow[]
  const kept = pending.length ? keptSizesOf(pending, (await claimedByMap(req.scope, [req.params.product_id])).variants) : new Map<string, string>()
  res.json({ currency_code: "uah", sizes: priceStory(rows, prices, saleList?.id ?? null, costs, "uah", kept) })
}
