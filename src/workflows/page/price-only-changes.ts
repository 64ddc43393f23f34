// Pure: which of a page's updates are price-only changes the bulk writer can write (their
// product fields and variants are as last written, and the shop holds exactly the variants
// the product map names), and what those writes are. Anything the update workflow would
// repair, relabel or remove (a crash's leftovers, an admin's renamed size, a deleted variant,
// an unpriced size) stays with the update workflow.
import type { BasePriceRow, PriceChange, StockChange } from "../../bulk-write"
import { reconcileWithShop, type LiveVariant } from "../../sync/variant-changes"
import type { CreatedProduct, ProductToUpdate } from "../page-input"

/** The plan says only the prices changed, and every size has a base price to set. */
export function pricesOnlyChanged(p: ProductToUpdate): boolean {
  const parts = p.partsToWrite
  return !!parts && parts.prices && !parts.fields && !parts.variants && p.input.variants.every((v) => v.amount !== null)
}

/** A live variant as the fast path reads it: also its live price set (if any) and that set's base price. */
export type LivePricedVariant = LiveVariant & {
  /** null: no live price set; priceId and amount null: the set has no base price in the shop's currency. */
  basePrice: { priceSetId: string; priceId: string | null; amount: string | null } | null
}

/** The base price rows setBasePrices reads, from the live variants already read (by product id). */
export function basePriceRowsOf(live: Record<string, LivePricedVariant[]>): BasePriceRow[] {
  const rows: BasePriceRow[] = []
  for (const [productId, variants] of Object.entries(live)) {
    for (const v of variants) {
      if (v.basePrice)
        rows.push({ variant_id: v.id, product_id: productId, price_set_id: v.basePrice.priceSetId, price_id: v.basePrice.priceId, amount: v.basePrice.amount })
    }
  }
  return rows
}

export interface PriceOnlySplit {
  /** Written in bulk, with the shop's ids (the map's, checked). */
  bulk: ProductToUpdate[]
  /** Left to the update workflow. */
  rest: ProductToUpdate[]
}

export function splitPriceOnly(products: ProductToUpdate[], live: Record<string, LivePricedVariant[]>): PriceOnlySplit {
  const out: PriceOnlySplit = { bulk: [], rest: [] }
  for (const p of products) {
    const variants = live[p.productId] ?? []
    const r = reconcileWithShop(p, variants)
    const priced = new Set(variants.filter((v) => v.basePrice).map((v) => v.id))
    const fits =
      pricesOnlyChanged(p) &&
      !r.repaired &&
      !r.relabeled?.length &&
      !r.staleVariantIds?.length &&
      p.input.variants.every((v) => r.variantIds[v.sizeKey] && r.inventoryItemIds[v.sizeKey] && priced.has(r.variantIds[v.sizeKey]))
    if (fits) out.bulk.push({ ...p, variantIds: r.variantIds, inventoryItemIds: r.inventoryItemIds })
    else out.rest.push(p)
  }
  return out
}

/** The base prices and stock levels of the bulk products, but for what they locked. */
export function priceOnlyWrites(products: ProductToUpdate[]): { prices: PriceChange[]; levels: StockChange[] } {
  return priceAndStockWrites(products, () => true)
}

/**
 * Base prices (of the products `writesPrices` picks) and stock levels, by size, but for what
 * each product locked. Shared by the price-only and fields-only bulk paths.
 */
export function priceAndStockWrites(
  products: ProductToUpdate[],
  writesPrices: (p: ProductToUpdate) => boolean
): { prices: PriceChange[]; levels: StockChange[] } {
  const prices: PriceChange[] = []
  const levels: StockChange[] = []
  for (const p of products) {
    const locked = p.lockedFields ?? []
    const withPrices = writesPrices(p) && !locked.includes("prices")
    for (const v of p.input.variants) {
      if (withPrices) prices.push({ variantId: p.variantIds[v.sizeKey], amount: v.amount! })
      if (!locked.includes("stock")) levels.push({ inventoryItemId: p.inventoryItemIds[v.sizeKey], quantity: p.stock[v.sizeKey] ?? 0 })
    }
  }
  return { prices, levels }
}

/** What the update workflow would have returned for a bulk product. */
export function writtenPriceOnly(p: ProductToUpdate): CreatedProduct {
  const sizes = p.input.variants.map((v) => v.sizeKey)
  const pick = (ids: Record<string, string>) => Object.fromEntries(sizes.map((s) => [s, ids[s]]))
  return { catalogId: p.catalogId, productId: p.productId, variantIds: pick(p.variantIds), inventoryItemIds: pick(p.inventoryItemIds) }
}
