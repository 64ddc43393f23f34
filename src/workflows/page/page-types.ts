// Serializable data the page workflow passes between its steps (workflow data is plain:
// the engine checkpoints it, so maps become records).
import type { RejectedItem } from "../../catalog-client/items"
import type { PlannedUpsert } from "../../sync/plan-page"
import type { CardDetails } from "../../sync/card-details"
import type { ProductCard } from "../../catalog-client"
import type { CreatedProduct } from "../page-input"

/** Reference data of the run (src/workflows/extras refreshReferenceData), as records. */
export interface PageReferences {
  categoryIdByCatalogId: Record<string, string>
  brandIdByCatalogId: Record<string, string>
  brandModelIdByCatalogId: Record<string, string>
  salePriceListId: string | null
  translationsEnabled: boolean
}

/** A planned product and what its write returned. */
export interface PlannedWrite {
  plan: PlannedUpsert
  result: CreatedProduct
}

export interface ChunkedWriteOutcome {
  written: PlannedWrite[]
  rejected: RejectedItem[]
}

/** A product this page wrote, as the steps after the product writes read it. */
export interface WrittenProduct {
  catalogId: string
  productId: string
  variantIdsBySize: Record<string, string>
  /** Each variant's selling amount when below its base price (mapped once, in map-card). */
  variants: { sizeKey: string; saleAmount: string | null }[]
  card: ProductCard
  details: CardDetails
}

export function writtenProducts(writes: PlannedWrite[]): WrittenProduct[] {
  return writes.map(({ plan, result }) => ({
    catalogId: plan.catalogId,
    productId: result.productId,
    variantIdsBySize: result.variantIds,
    variants: plan.input.variants.map((v) => ({ sizeKey: v.sizeKey, saleAmount: v.saleAmount })),
    card: plan.card,
    details: plan.input.details,
  }))
}
