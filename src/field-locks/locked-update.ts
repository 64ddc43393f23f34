// The small pure step between the page's plan and its update write: a mapped product's
// planned update loses its locked fields (the write step reads `lockedFields`), and the
// catalog's values for them are handed back to be recorded for the admin.
import { ALL_PARTS } from "../sync/fingerprint"
import type { ProductVariantsBefore } from "../sync/variant-changes"
import type { LockableField, PlannedFieldValues } from "./fields"
import { applyLocks } from "./locks"

/** What an update writes of a product, per lockable field (parts the plan does not write are absent). */
export function plannedFieldValues(p: ProductVariantsBefore): PlannedFieldValues {
  const parts = p.partsToWrite ?? ALL_PARTS
  const out: PlannedFieldValues = { stock: { ...p.stock } }
  if (parts.fields) {
    out.title = p.input.title
    out.description = p.input.description
    out.images = p.input.images.map((i) => i.url)
    out.categories = [...p.input.categoryIds]
  }
  // The selling price per size (the sale price when the size is on sale), not the crossed-out base.
  if (parts.prices) out.prices = Object.fromEntries(p.input.variants.map((v) => [v.sizeKey, v.saleAmount ?? v.amount]))
  return out
}

/** The catalog's values a locked product did not take, to record for the admin. */
export interface HeldValues {
  productId: string
  catalogId: string
  held: PlannedFieldValues
}

export interface LockedUpdates<P extends ProductVariantsBefore> {
  products: P[]
  held: HeldValues[]
}

/**
 * Each product with its locked fields marked (`lockedFields`: product fields are left out of
 * the write, prices and stock of the sizes it has are not written; a new size still gets the
 * catalog's price and stock). Products without locks pass unchanged.
 */
export function lockUpdates<P extends ProductVariantsBefore>(products: P[], locksByProductId: Record<string, LockableField[]>): LockedUpdates<P> {
  const held: HeldValues[] = []
  const out = products.map((p) => {
    const locked = locksByProductId[p.productId] ?? []
    if (!locked.length) return p
    const result = applyLocks(plannedFieldValues(p), locked, new Set(Object.keys(p.variantIds)))
    if (result.heldFields.length) held.push({ productId: p.productId, catalogId: p.catalogId, held: result.held })
    return { ...p, lockedFields: locked }
  })
  return { products: out, held }
}

/** Stock levels of a stock-only product that its stock lock keeps (sizes it has): left out of the write. */
export function stockLocked(productId: string | null | undefined, locksByProductId: Record<string, LockableField[]>): boolean {
  return !!productId && (locksByProductId[productId] ?? []).includes("stock")
}

/** The Medusa product keys each locked product field covers (a locked gallery keeps its thumbnail too). */
const PRODUCT_KEYS: Partial<Record<LockableField, readonly string[]>> = {
  title: ["title"],
  description: ["description"],
  images: ["images", "thumbnail"],
  categories: ["category_ids"],
}

/** The product-level write without the keys of locked fields. */
export function withoutLockedProductFields<T extends Record<string, unknown>>(fields: T, lockedFields: readonly string[]): T {
  if (!lockedFields.length) return fields
  const out: Record<string, unknown> = { ...fields }
  for (const f of lockedFields) for (const key of PRODUCT_KEYS[f as LockableField] ?? []) delete out[key]
  return out as T
}

/**
 * The product fields a write sets (the ones auto-lock compares: title, description, images,
 * categories), minus locked ones; empty when the write leaves product fields alone.
 */
export function writtenProductFields(p: Pick<ProductVariantsBefore, "input" | "partsToWrite" | "lockedFields">): PlannedFieldValues {
  if (!(p.partsToWrite?.fields ?? true)) return {}
  const locked = p.lockedFields ?? []
  const all: PlannedFieldValues = {
    title: p.input.title,
    description: p.input.description,
    images: p.input.images.map((i) => i.url),
    categories: [...p.input.categoryIds],
  }
  return Object.fromEntries(Object.entries(all).filter(([f]) => !locked.includes(f))) as PlannedFieldValues
}
