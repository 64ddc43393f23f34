// Serializable inputs of the page-writing workflows (workflow inputs are checkpointed,
// so plain data only).
import { productMetadata, type CatalogProduct, type StockInput } from "../sync/catalog-product"
import { copyColumnValues, nullColumns, objectTemplate, PRODUCT_COLUMN_LIST, type ProductColumnValues } from "../sync/product-columns"
import type { ProductVariantsBefore } from "../sync/variant-changes"
import { withoutLockedProductFields } from "../field-locks"

export interface ProductToCreate {
  catalogId: string
  input: CatalogProduct
  stock: StockInput
}

export interface CreatedProduct {
  catalogId: string
  productId: string
  /** size key → variant id */
  variantIds: Record<string, string>
  /** size key → inventory item id */
  inventoryItemIds: Record<string, string>
}

/** A mapped product to rewrite: the shape the pure variant planner reads. */
export type ProductToUpdate = ProductVariantsBefore

/** Where the sync puts products (shop setup, ensure-shop-setup.ts, resolves it once per run). */
export interface Placement {
  stockLocationId: string
  salesChannelId: string
  /** Products are linked to it so they can be shipped; null when the shop has none. */
  shippingProfileId: string | null
}

/**
 * A new product as the product module creates it: its fields, the size option and one variant a
 * size, ranked so sizes keep their order in the option and the variant list (no prices, stock or
 * links: each write path adds those its own way).
 */
export function productToCreateInput(input: CatalogProduct) {
  return {
    ...productFields(input),
    options: [
      {
        title: input.optionTitle,
        values: input.variants.map((v) => v.optionValue),
        ranks: Object.fromEntries(input.variants.map((v, i) => [v.optionValue, i])),
      },
    ],
    variants: input.variants.map((v, i) => ({
      title: v.title,
      variant_rank: i,
      sku: v.sku,
      options: { [input.optionTitle]: v.optionValue },
      manage_inventory: true,
      metadata: v.metadata,
    })),
  }
}

const PRODUCT_FIELDS = objectTemplate([...nullColumns(PRODUCT_COLUMN_LIST), ["images", null], ["metadata", null], ["category_ids", null]])

/**
 * The Medusa product fields the sync owns (no variants, options or links), minus the locked ones:
 * the described columns (src/sync/product-columns.ts), the gallery, metadata and categories.
 */
export function productFields(input: CatalogProduct, lockedFields: readonly string[] = []) {
  const fields = { ...PRODUCT_FIELDS }
  copyColumnValues(fields, input, PRODUCT_COLUMN_LIST)
  fields.images = input.images
  fields.metadata = productMetadata(input)
  fields.category_ids = input.categoryIds
  return withoutLockedProductFields(
    fields as ProductColumnValues & { images: { url: string }[]; metadata: Record<string, unknown>; category_ids: string[] },
    lockedFields
  )
}
