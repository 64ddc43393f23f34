// What a run writes into the shop, as one interface with two implementations: the plugin's bulk
// SQL (bulk/, over src/bulk-write) and Medusa's own core-flows workflows (core-flows/, over
// src/workflows/*-through-core-flows.ts). A run chooses one once (choose-shop-writer.ts) and every
// write of the run goes through it; nothing else asks which way the shop is written.
//
// Every method is a diff against what the shop holds or a value set again, so a replayed page
// writes nothing more; every write checks the run's lock (src/bulk-write/write-fence.ts).
import type { NewTranslation } from "../bulk-write/translations"
import type { StockChange } from "../bulk-write"
import type { Sql } from "../bulk-write/connection"
import type { WritePath } from "../sync/settings/plugin-options"
import type { CreatedProduct, Placement, ProductToCreate, ProductToUpdate } from "../workflows/page-input"
import type { ChunkedWrite } from "../workflows/page/write-in-chunks"

export type { WritePath }

/** Products written and those that failed even alone (per-product containment, write-in-chunks.ts). */
export type ProductsWritten<P> = ChunkedWrite<P, CreatedProduct>

export interface ProductsUpdated extends ProductsWritten<ProductToUpdate> {
  /** Catalog ids written as price-only changes: their fields and variants are as they were. */
  pricesOnly: string[]
}

/** A batch of the translation module's rows: new, changed and gone. */
export interface TranslationBatch {
  create: NewTranslation[]
  update: { id: string; translations: Record<string, string> }[]
  delete: string[]
}

/** One of the plugin's product links (src/links) by its Query entry point and the linked record's key. */
export type LinkKind = { entryPoint: string; key: "catalog_brand_id" | "catalog_brand_model_id" }

/** A variant's prices as Medusa holds them: base price and the sale list's price (null: none). */
export interface VariantPrices {
  variantId: string
  amount: string | null
  saleAmount: string | null
}

export interface ShopWriter {
  /** Which implementation this is (logs, the page's workflow input for other instances). */
  readonly path: WritePath
  /** New products with their variants, prices, inventory items, stock levels, sales channel and categories. */
  createProducts(products: ProductToCreate[], placement: Placement, concurrency: number): Promise<ProductsWritten<ProductToCreate>>
  /**
   * Changed products (fields, prices, stock, sizes). `eventGroupId`: the page workflow's event
   * group, which holds the writes' events until the page has committed (core-flows only).
   */
  updateProducts(products: ProductToUpdate[], placement: Placement, concurrency: number, eventGroupId?: string): Promise<ProductsUpdated>
  /** Stock-only changes at the sync's location. */
  setStock(levels: StockChange[], stockLocationId: string): Promise<void>
  /**
   * Removes products (soft delete); those with stock an open order reserved are kept for the order
   * instead (draft, off sale, a pending removal, bulk-write/open-orders.ts). Returns the kept ones.
   */
  removeProducts(productIds: string[], runId: string | null): Promise<string[]>
  /** The sale list's prices of these variants made exactly the wanted ones (null: none). */
  setSalePrices(priceListId: string, wanted: { variantId: string; saleAmount: string | null }[]): Promise<{ created: number; updated: number; deleted: number }>
  /** A reprice batch's prices, then the plugin's own rows for them (`alongside`, in the same transaction where the writer has one). */
  setPrices(prices: VariantPrices[], saleListId: string, alongside: (trx: Sql) => Promise<void>): Promise<void>
  writeTranslations(batch: TranslationBatch): Promise<void>
  /** Sets each product's single link of this kind to `wanted` (null: no link). */
  setLinks(kind: LinkKind, wanted: Map<string, string | null>): Promise<{ created: number; dismissed: number }>
}
