// The product fields the shop can take over from the sync, and the values a sync write
// carries for them. The page workflow maps its product input onto PlannedFieldValues (and
// back) so locks stay independent of how the write is batched.
import { z } from "zod"

export const LOCKABLE_FIELDS = ["title", "description", "images", "categories", "prices", "stock"] as const
export type LockableField = (typeof LOCKABLE_FIELDS)[number]

export const lockableFieldSchema = z.enum(LOCKABLE_FIELDS)

/**
 * What one sync write of a product sets, per lockable field. Absent: the write does not touch
 * that field. Per-size maps are keyed by size ("" for the default variant of a product
 * without sizes), as the product map keys variants.
 */
export interface PlannedFieldValues {
  title?: string
  description?: string | null
  /** Gallery URLs, main image first (the thumbnail follows the first). */
  images?: string[]
  /** Medusa category ids. */
  categories?: string[]
  /** size → selling amount (decimal string), null when the size has no price. */
  prices?: Record<string, string | null>
  /** size → stocked quantity. */
  stock?: Record<string, number>
}

export const isPerSizeField = (field: LockableField): field is "prices" | "stock" => field === "prices" || field === "stock"
