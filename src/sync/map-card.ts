// Pure: a catalog card → the product, "Size" option, variants, prices and images the
// engine writes to Medusa. Descriptive fields come from mapCardDetails (fidelity).
import type { ProductCard } from "../catalog-client/schemas"
import { mapCardDetails, variantAmounts, type CardDetails, type Language } from "./card-details"
import {
  DEFAULT_SIZE_KEY,
  ONE_SIZE,
  type ProductInput,
  type StockInput,
  type VariantInput,
} from "./product-input"

export interface MapContext {
  primaryLanguage: Language
  salesChannelId: string | null
  /** The stock location levels are written to (part of the stock fingerprint). */
  stockLocationId?: string | null
  /** Medusa category ids for a card (fidelity's categoryIdsFor over the run's reference maps). */
  categoryIdsFor?: (details: CardDetails) => string[]
}

/**
 * Variant SKU: the card's SKU, the size and the catalog id — `<sku>-<size>#<catalog id>`, or
 * `<sku>#<catalog id>` for a card without sizes. Medusa's SKUs are unique, and without the id
 * two cards would collide when they share a SKU or when "A-1" + size "2" meets "A" + size "1-2".
 * The id (digits only) follows the last "#", and one card's sizes are distinct, so no two
 * variants the plugin writes share a SKU.
 */
export function variantSku(card: ProductCard, sizeKey: string): string {
  return sizeKey === DEFAULT_SIZE_KEY ? `${card.sku}#${card.id}` : `${card.sku}-${sizeKey}#${card.id}`
}

/**
 * Sizes in catalog order, first occurrence winning: Medusa needs distinct option
 * values, and a feed that repeats a size must not create two variants for it.
 */
export function distinctSizes(card: ProductCard): ProductCard["sizes"] {
  const seen = new Set<string>()
  return card.sizes.filter((s) => {
    const key = s.size.trim()
    if (key === "" || seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function variantsOf(card: ProductCard): VariantInput[] {
  const sizes = distinctSizes(card)
  if (sizes.length === 0) {
    return [
      {
        sizeKey: DEFAULT_SIZE_KEY,
        title: ONE_SIZE,
        sku: variantSku(card, DEFAULT_SIZE_KEY),
        optionValue: ONE_SIZE,
        ...variantAmounts(card),
        metadata: { catalog_id: card.id, catalog_size: null },
      },
    ]
  }
  return sizes.map((s) => {
    const size = s.size.trim()
    return {
      sizeKey: size,
      title: size,
      sku: variantSku(card, size),
      optionValue: size,
      ...variantAmounts(s),
      metadata: { catalog_id: card.id, catalog_size: size },
    }
  })
}

/** Images in catalog order with the main one first; duplicates dropped (Medusa ranks by position). */
function imagesOf(card: ProductCard): { url: string }[] {
  const main = card.images.filter((i) => i.is_main)
  const rest = card.images.filter((i) => !i.is_main)
  const seen = new Set<string>()
  const out: { url: string }[] = []
  for (const image of [...main, ...rest]) {
    const url = image.url.trim()
    if (url === "" || seen.has(url)) continue
    seen.add(url)
    out.push({ url })
  }
  return out
}

/** Metadata key marking a product this plugin made (external_id alone may come from another import). */
export const PRODUCT_MARKER = "catalog_sync"

/** Did this plugin make the product for this catalog id? Products of other imports are never touched. */
export function isOwnProduct(product: { external_id?: string | null; metadata?: Record<string, unknown> | null }): boolean {
  const meta = product.metadata
  return !!meta && meta[PRODUCT_MARKER] === true && meta.catalog_id === product.external_id
}

export function mapCardToProduct(card: ProductCard, ctx: MapContext): ProductInput {
  const details = mapCardDetails(card, { primaryLanguage: ctx.primaryLanguage })
  const variants = variantsOf(card)
  const images = imagesOf(card)
  // A product nobody can buy at a price stays a draft: no variant priced → draft.
  const priced = variants.some((v) => v.amount !== null)
  return {
    catalogId: card.id,
    external_id: card.id,
    title: details.title,
    handle: details.handle ?? `catalog-${card.id}`,
    description: details.description,
    subtitle: details.subtitle ?? null,
    status: priced ? "published" : "draft",
    weight: details.weight,
    length: details.length,
    width: details.width,
    height: details.height,
    material: details.material,
    origin_country: details.origin_country,
    images,
    thumbnail: images[0]?.url ?? null,
    metadata: { ...details.metadata, [PRODUCT_MARKER]: true },
    categoryIds: ctx.categoryIdsFor?.(details) ?? [],
    variants,
    salesChannelId: ctx.salesChannelId,
    details,
  }
}

/** Stock per size key; a card out of stock has every level at 0. */
export function stockOf(card: ProductCard): StockInput {
  const sizes = distinctSizes(card)
  if (sizes.length === 0) {
    return { [DEFAULT_SIZE_KEY]: card.in_stock ? Math.max(0, card.stock ?? 0) : 0 }
  }
  const stock: StockInput = {}
  for (const s of sizes) stock[s.size.trim()] = card.in_stock ? s.stock : 0
  return stock
}
