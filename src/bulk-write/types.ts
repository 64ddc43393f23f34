// Plain inputs of the bulk writer: no Medusa types, so any caller can shape its data into them
// (the product columns are the sync's column description). Amounts are exact decimal strings in
// major units; quantities are integers.
import type { ProductColumnName, ProductColumnValues } from "../sync/product-columns"

export interface BulkVariant {
  title: string
  sku: string
  /** option title → value, e.g. { "Розмір": "42" } */
  options: Record<string, string>
  /** Base price in the writer's currency; null = the variant gets an empty price set. */
  amount: string | null
  /** Stock at the placement's location. */
  stock: number
  metadata?: Record<string, unknown> | null
  /** Inventory item title; Medusa's createProductsWorkflow uses the variant title. */
  inventoryTitle?: string
  /** Inventory item description; absent = the item's title (createProductsWorkflow), null = none (the inventory module's createInventoryItems). */
  inventoryDescription?: string | null
}

export interface BulkOption {
  title: string
  /**
   * In display order. Ranks stay null: Medusa 2.21's createProducts ignores inline `ranks`
   * (only createProductOptions applies them), so the plugin's ranks are not stored today either.
   */
  values: string[]
}

/** A new product: the product columns (title, handle and status required), then its parts. */
export interface BulkProduct extends Omit<ProductColumns, "title" | "handle" | "status"> {
  title: string
  handle: string
  status: NonNullable<ProductColumns["status"]>
  /** Image URLs in order (rank = position). */
  images: string[]
  categoryIds: string[]
  options: BulkOption[]
  /** In variant_rank order. */
  variants: BulkVariant[]
}

/** Where new products are sold, stocked and shipped from. */
export interface BulkPlacement {
  salesChannelId: string
  stockLocationId: string
  shippingProfileId?: string | null
  currencyCode: string
}

export interface CreatedBulkProduct {
  productId: string
  handle: string
  variants: { sku: string; variantId: string; priceSetId: string; inventoryItemId: string; inventoryLevelId: string }[]
}

export interface StockChange {
  inventoryItemId: string
  quantity: number
}

export interface PriceChange {
  variantId: string
  /** Exact decimal string, major units. */
  amount: string
}

export interface SalePrice {
  variantId: string
  amount: string
}

/** A variant's price in the sale list: `amount` null = it has none. */
export interface WantedSalePrice {
  variantId: string
  amount: string | null
}

/**
 * Product-level columns an update may set (absent = left as it is, e.g. a locked field): the
 * columns of the sync's description (src/sync/product-columns.ts) and the metadata.
 */
export type ProductColumns = {
  [K in Exclude<ProductColumnName, "status">]?: ProductColumnValues[K]
} & {
  status?: "draft" | "proposed" | "published" | "rejected"
  /** Merged into the stored metadata (a key set to "" is removed), as the product module does. */
  metadata?: Record<string, unknown> | null
}

export interface ProductFieldsUpdate {
  productId: string
  columns: ProductColumns
  /** The whole gallery in order (replaces every image); absent = images untouched. */
  images?: string[]
  /** The product's categories (exactly these); absent = untouched. */
  categoryIds?: string[]
}

/** A size kept by a size change: the variant's fields as the update writes them (metadata is merged). */
export interface KeptSize {
  variantId: string
  rank: number
  title: string
  sku: string
  metadata: Record<string, unknown>
}

/** A size a size change adds: a new variant (rank = its position) on the size option's value. */
export interface AddedSize extends Omit<BulkVariant, "options"> {
  rank: number
  optionValue: string
}

/** One product's size change: variants removed, the size option's values after it, sizes kept and added. */
export interface SizeChange {
  productId: string
  /** The size option's title (the product must have it). */
  optionTitle: string
  removedVariantIds: string[]
  /** The option values the product's sizes use after the change (others are pruned). */
  values: string[]
  kept: KeptSize[]
  added: AddedSize[]
}
