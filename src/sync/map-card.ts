// Pure: a catalog card → its CatalogProduct, mapped once: the size option ("Розмір"), variants,
// prices and images here, the descriptive fields from mapCardDetails (card-details.ts).
import type { ProductCard } from "../catalog-client/schemas"
import { priceOf, type PricingContext } from "../pricing/engine"
import type { PricingRules } from "../pricing/rules"
import { mapCardDetails, otherLanguage, variantAmounts, type CardDescription } from "./card-details"
import { toAmount } from "./money"
import type { Language } from "./settings/language"
import { DEFAULT_SIZE_KEY, type CatalogProduct, type CatalogVariant, type StockInput, type VariantPricing } from "./catalog-product"
import { DEFAULT_VOCABULARY, type ShopVocabulary } from "./shop-vocabulary"
import { sortSizes } from "./size-order"

export interface MapContext {
  primaryLanguage: Language
  salesChannelId: string | null
  /** The stock location levels are written to (part of the stock fingerprint). */
  stockLocationId?: string | null
  /** Medusa category ids for a card (categoryIdsFor in src/workflows/extras over the run's reference maps). */
  categoryIdsFor?: (product: Pick<CatalogProduct, "categoryCatalogId">) => string[]
  /** Size option title and one-size value per language (default: DEFAULT_VOCABULARY). */
  vocabulary?: ShopVocabulary
  /**
   * The shop's pricing rules: selling and crossed-out prices are computed from each size's
   * `cost_price` (src/pricing/engine.ts). Without it, the card's own `price`/`old_price` are used.
   */
  pricing?: MapPricing
}

export interface MapPricing {
  rules: PricingRules
  /** Catalog category ids from the root to the given category (the rules' inheritance). */
  categoryPathOf: (catalogCategoryId: string | null) => string[]
}

/** One size's prices by the shop's rules (null cost: no price). */
function priceByRules(cost: string | null | undefined, context: PricingContext, pricing: MapPricing): VariantPricing {
  const exact = toAmount(cost ?? null)
  const base = { cost: exact, categoryPath: [...context.categoryPath], brandId: context.brandId }
  if (exact === null) return { ...base, amount: null, crossedOut: null }
  const result = priceOf(exact, context, pricing.rules)
  return { ...base, amount: result.amount, crossedOut: result.crossedOut }
}

/**
 * Variant SKU: `<sku>-<size>`, or `<sku>` for a card without sizes. When that SKU is already
 * held by a variant of another product (two cards sharing a SKU, or "A-1" + size "2" meeting
 * "A" + size "1-2"), the catalog id is appended: `<sku>-<size>#<catalog id>`. Whether it is
 * taken is decided at write time against the shop (src/workflows/resolve-variant-skus.ts);
 * the id (digits only) follows the last "#", and one card's sizes are distinct, so the
 * suffixed form never collides. Every place that needs a variant's SKU computes it here.
 */
export function variantSku(card: Pick<ProductCard, "sku" | "id">, sizeKey: string, taken = false): string {
  const base = sizeKey === DEFAULT_SIZE_KEY ? card.sku : `${card.sku}-${sizeKey}`
  return taken ? `${base}#${card.id}` : base
}

/** The two SKUs a variant can have, the plain one first (crash adoption looks for either). */
export function variantSkuCandidates(card: Pick<ProductCard, "sku" | "id">, sizeKey: string): [string, string] {
  return [variantSku(card, sizeKey, false), variantSku(card, sizeKey, true)]
}

/**
 * Sizes in size order (numeric, then XXS…XXXL, then text; src/sync/size-order.ts), first
 * occurrence winning: Medusa needs distinct option values, and a feed that repeats a size
 * must not create two variants for it.
 */
export function distinctSizes(card: ProductCard): ProductCard["sizes"] {
  const seen = new Set<string>()
  const distinct = card.sizes.filter((s) => {
    const key = s.size.trim()
    if (key === "" || seen.has(key)) return false
    seen.add(key)
    return true
  })
  return sortSizes(distinct, (s) => s.size.trim())
}

function variantsOf(
  card: ProductCard,
  oneSize: string,
  details: Pick<CardDescription, "categoryCatalogId" | "brand">,
  pricing: MapPricing | undefined
): CatalogVariant[] {
  const sizes = distinctSizes(card)
  const context: PricingContext = pricing
    ? { categoryPath: pricing.categoryPathOf(details.categoryCatalogId), brandId: details.brand?.id ?? null }
    : { categoryPath: [], brandId: null }
  const amountsOf = (entry: { price?: string | null; old_price?: string | null; cost_price?: string | null }) => {
    if (!pricing) return variantAmounts(entry)
    const priced = priceByRules(entry.cost_price, context, pricing)
    return { ...variantAmounts({ price: priced.amount, old_price: priced.crossedOut }), priced }
  }
  if (sizes.length === 0) {
    return [
      {
        sizeKey: DEFAULT_SIZE_KEY,
        title: oneSize,
        sku: variantSku(card, DEFAULT_SIZE_KEY),
        optionValue: oneSize,
        ...amountsOf(card),
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
      ...amountsOf(s),
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

export function mapCardToProduct(card: ProductCard, ctx: MapContext): CatalogProduct {
  const { extraMetadata, ...details } = mapCardDetails(card, { primaryLanguage: ctx.primaryLanguage })
  const vocabulary = ctx.vocabulary ?? DEFAULT_VOCABULARY
  const labels = vocabulary[ctx.primaryLanguage]
  const otherLabels = vocabulary[otherLanguage(ctx.primaryLanguage)]
  const variants = variantsOf(card, labels.oneSize, details, ctx.pricing)
  const images = imagesOf(card)
  // A product nobody can buy at a price stays a draft: no variant priced → draft.
  const priced = variants.some((v) => v.amount !== null)
  return {
    ...details,
    catalogId: card.id,
    sku: card.sku,
    syncVersion: card.sync_version,
    external_id: card.id,
    subtitle: null,
    status: priced ? "published" : "draft",
    images,
    thumbnail: images[0]?.url ?? null,
    // The size words in the other language, for storefronts that show it (option titles and
    // values are not translated by the plugin).
    extraMetadata: {
      ...extraMetadata,
      [PRODUCT_MARKER]: true,
      size_labels: { [otherLanguage(ctx.primaryLanguage)]: { option: otherLabels.option, one_size: otherLabels.oneSize } },
    },
    optionTitle: labels.option,
    categoryIds: ctx.categoryIdsFor?.(details) ?? [],
    variants,
    salesChannelId: ctx.salesChannelId,
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
