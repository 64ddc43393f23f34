// The plain inputs the engine writes to Medusa for one catalog card. Built by
// mapCardToProduct (pure), compared by fingerprint, written by src/workflows.
import type { CardDetails } from "./card-details"

/** Key of that variant in the product map's variant_ids ("" = no catalog size). */
export const DEFAULT_SIZE_KEY = ""
export const CURRENCY_CODE = "uah"

export interface VariantInput {
  /** Catalog size, or DEFAULT_SIZE_KEY for a card without sizes. */
  sizeKey: string
  title: string
  sku: string
  /** Value of the product's size option (optionTitle). */
  optionValue: string
  /**
   * The variant's base price in major units, an exact decimal string ("1287.00"), or null
   * when the catalog has no price: the crossed-out old_price when above the selling price
   * (the selling price then goes in fidelity's sale price list), else the selling price.
   */
  amount: string | null
  /**
   * The selling price when it is below the base price (fidelity writes it in the sale price
   * list), else null. Not written by the engine; part of the prices fingerprint, so a change
   * of the selling price alone is still a change.
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
  /** The engine's selling and crossed-out prices (crossed-out as computed, even when not above the price). */
  amount: string | null
  crossedOut: string | null
  categoryPath: string[]
  brandId: string | null
}

export interface ProductInput {
  catalogId: string
  external_id: string
  title: string
  handle: string
  description: string | null
  subtitle: string | null
  status: "published" | "draft"
  weight: number | null
  length: number | null
  width: number | null
  height: number | null
  material: string | null
  origin_country: string | null
  images: { url: string }[]
  /** Title of the size option, in the shop's primary language ("Розмір"). */
  optionTitle: string
  thumbnail: string | null
  metadata: Record<string, unknown>
  /** Medusa product_category ids (part of the fingerprint, so a moved product is rewritten). */
  categoryIds: string[]
  variants: VariantInput[]
  salesChannelId: string | null
  details: CardDetails
}

/** Stock per size key, as written to the inventory level at the stock location. */
export type StockInput = Record<string, number>
