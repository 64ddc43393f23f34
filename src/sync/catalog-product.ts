// One catalog card as the sync reads it after mapping: mapCardToProduct (pure) builds it once,
// the fingerprint hashes it, the plan carries it and src/workflows writes it. No later stage
// reads the raw card.
import type { ProductColumnValues } from "./product-columns"
import type { Language } from "./settings/language"

/** Key of that variant in the product map's variant_ids ("" = no catalog size). */
export const DEFAULT_SIZE_KEY = ""
export const CURRENCY_CODE = "uah"

/** Medusa locale codes for the catalog's two languages. */
export const LOCALE_BY_LANGUAGE: Record<Language, string> = { uk: "uk-UA", ru: "ru-RU" }

/** Texts in the non-primary language, as Medusa's translation module stores them for a product. */
export interface ProductTranslation {
  title: string
  description: string | null
  material: string | null
}

/** A brand or brand model of the catalog, by catalog id. */
export interface CatalogReference {
  id: string
  name: string
}

export interface CatalogVariant {
  /** Catalog size, or DEFAULT_SIZE_KEY for a card without sizes. */
  sizeKey: string
  title: string
  sku: string
  /** Value of the product's size option (optionTitle). */
  optionValue: string
  /**
   * The variant's base price in major units, an exact decimal string ("1287.00"), or null
   * when the catalog has no price: the crossed-out old_price when above the selling price
   * (the selling price then goes in the sale price list), else the selling price.
   */
  amount: string | null
  /**
   * The selling price when it is below the base price (written to the sale price list), else
   * null. Part of the prices fingerprint, so a change of the selling price alone is a change.
   */
  saleAmount: string | null
  metadata: Record<string, unknown>
  /**
   * What the shop's pricing rules made of the size's cost (set when the sync prices with rules):
   * kept in the plugin's cost table for reprices, never written to Medusa. Not fingerprinted
   * (the amounts above are).
   */
  priced?: VariantPricing
}

export interface VariantPricing {
  /** `cost_price` of the size (or card), exact; null when no supplier has a price. */
  cost: string | null
  /** The rules' selling and crossed-out prices (crossed-out as computed, even when not above the price). */
  amount: string | null
  crossedOut: string | null
  categoryPath: string[]
  brandId: string | null
}

/**
 * The product's plain columns (title, handle, texts, measures…) are the fields the column
 * description names (product-columns.ts); the rest are the product's other parts.
 */
export interface CatalogProduct extends ProductColumnValues {
  catalogId: string
  /** The card's SKU (variant SKUs are built from it). */
  sku: string
  /** The card's sync_version, kept in the product map (not fingerprinted: it moves with stock). */
  syncVersion: number
  images: { url: string }[]
  /** Title of the size option, in the shop's primary language ("Розмір"). */
  optionTitle: string
  /**
   * The product metadata not held by a field above (attributes, marketplace text, size labels,
   * the marker); productMetadata adds the rest into what Medusa stores.
   */
  extraMetadata: Record<string, unknown>
  /** Medusa product_category ids (part of the fingerprint, so a moved product is rewritten). */
  categoryIds: string[]
  salesChannelId: string | null
  variants: CatalogVariant[]
  /** The non-primary language, keyed by Medusa locale ("uk-UA" | "ru-RU"). */
  translations: Record<string, ProductTranslation>
  categoryCatalogId: string | null
  brand: CatalogReference | null
  brandModel: CatalogReference | null
}

/** Stock per size key, as written to the inventory level at the stock location. */
export type StockInput = Record<string, number>

const LANGUAGE_BY_LOCALE = Object.fromEntries(Object.entries(LOCALE_BY_LANGUAGE).map(([language, locale]) => [locale, language]))

/**
 * The product metadata Medusa stores: what storefronts read beyond the typed fields (the
 * catalog references, and the other language for storefronts without the translation module,
 * kept always so switching the module on or off loses nothing).
 */
export function productMetadata(product: CatalogProduct): Record<string, unknown> {
  const reference = (r: CatalogReference | null) => (r ? { catalog_id: r.id, name: r.name } : null)
  return {
    ...product.extraMetadata,
    catalog_id: product.catalogId,
    sku: product.sku,
    catalog_category_id: product.categoryCatalogId,
    brand: reference(product.brand),
    brand_model: reference(product.brandModel),
    translations: Object.fromEntries(Object.entries(product.translations).map(([locale, t]) => [LANGUAGE_BY_LOCALE[locale], t])),
  }
}
