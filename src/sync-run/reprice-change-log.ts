// A reprice run's change log (pure): one "updated" row per product whose prices the batch
// writes, with its selling price before and after (the lowest over its sizes, the rule the
// page's rows use: src/sync/change-rows.ts). Products whose prices the shop locked write no
// price and get no row.
import type { PriceChange } from "../pricing/reprice"
import { lowestPrice, type ChangeRecord } from "../sync/change-rows"

/** A size's stored selling price before the batch. */
export type SizeNow = { catalog_id: string; variant_id: string; amount: string | null }

export function repriceChangeRows(
  changes: readonly PriceChange[],
  sizes: readonly SizeNow[],
  products: ReadonlyMap<string, { product_id: string | null; title: string | null }>
): ChangeRecord[] {
  const toOf = new Map(changes.map((c) => [c.variant_id, c.to.amount]))
  const sizesOf = new Map<string, SizeNow[]>()
  for (const s of sizes) sizesOf.set(s.catalog_id, [...(sizesOf.get(s.catalog_id) ?? []), s])
  const catalogIds = [...new Set(changes.map((c) => c.catalog_id).filter((id): id is string => !!id))]
  return catalogIds.map((catalogId) => {
    const own = sizesOf.get(catalogId) ?? []
    const product = products.get(catalogId)
    return {
      kind: "updated",
      catalog_id: catalogId,
      product_id: product?.product_id ?? null,
      title: product?.title ?? null,
      price_changed: true,
      stock_changed: false,
      sizes_changed: false,
      images_changed: false,
      text_changed: false,
      price_before: lowestPrice(own.map((s) => s.amount)),
      price_after: lowestPrice(own.map((s) => (toOf.has(s.variant_id) ? toOf.get(s.variant_id) : s.amount))),
      reason: null,
    }
  })
}
