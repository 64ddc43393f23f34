// Write time: gives the variants a page will create or update their SKUs (src/sync/variant-skus.ts)
// after looking up which of the candidate SKUs the shop's variants already hold.
import type { ShopVariantSkus } from "../bulk-write/reads/variant-skus"
import type { MapRow } from "../sync/plan-page"
import { chooseVariantSkus, skusToLookUp, type SkuRequest } from "../sync/variant-skus"

/** A product whose variants get SKUs: its card's SKU and id, its map row, its variants' size keys. */
export interface SkuSubject {
  catalogId: string
  card: { sku: string; id: string }
  row: Pick<MapRow, "product_id" | "variant_ids"> | null
  input: { variants: { sizeKey: string; sku: string }[] }
}

export type { ShopVariantSkus }

/**
 * Sets `input.variants[].sku` of the planned creates and updates in place. `adopted`: catalog id →
 * the product a crashed create left behind, which this page adopts (its variants' SKUs are its own).
 */
export async function resolveVariantSkus(shop: ShopVariantSkus, planned: SkuSubject[], adopted: ReadonlyMap<string, string> = new Map()): Promise<void> {
  if (!planned.length) return
  const variantIds = planned.flatMap((p) => (p.row?.product_id ? Object.values(p.row.variant_ids ?? {}) : []))
  const current = await shop.byIds(variantIds)
  const skuOfVariant = new Map(current.map((v) => [v.id, v.sku ?? null]))
  const requests: SkuRequest[] = planned.map((p) => {
    // The product written is the adopted leftover when there is one, even when the map still
    // names a product deleted in the admin (its variants are gone with it).
    const orphan = adopted.get(p.catalogId)
    const productId = orphan ?? p.row?.product_id ?? null
    return {
      catalogId: p.catalogId,
      card: p.card,
      productId,
      variants: p.input.variants.map((v) => {
        const variantId = productId && !orphan ? p.row?.variant_ids?.[v.sizeKey] : undefined
        return { sizeKey: v.sizeKey, currentSku: variantId ? (skuOfVariant.get(variantId) ?? null) : null }
      }),
    }
  })
  const candidates = skusToLookUp(requests)
  const holders = new Map<string, string>()
  for (let i = 0; i < candidates.length; i += 1000) {
    const rows = await shop.bySkus(candidates.slice(i, i + 1000))
    for (const row of rows) if (row.sku) holders.set(row.sku, row.product_id ?? "")
  }
  const choice = chooseVariantSkus(requests, holders)
  for (const p of planned) {
    const skus = choice.get(p.catalogId)
    for (const v of p.input.variants) v.sku = skus?.get(v.sizeKey) ?? v.sku
  }
}
