// Shaping of the page's writes by field locks (src/field-locks), used by the page workflow's
// steps: locked fields leave the updates and stock-only levels; the catalog's values they
// kept out, and (auto-lock on) what the sync wrote, are recorded after the writes.
import { applyLocks, lockUpdates, stockLocked, writtenProductFields, type HeldValues, type LockableField, type PlannedFieldValues } from "../../field-locks"
import type { ProductToCreate, ProductToUpdate } from "../page-input"
import type { PlannedRecord, PlannedWrite, WrittenProduct } from "./page-types"
import type { PageFieldLocks } from "./page-context"

/** The field values a page records after its writes. */
export interface RecordFieldValuesInput {
  held: HeldValues[]
  /** Empty unless auto-lock is on. */
  written: { productId: string; catalogId: string; values: PlannedFieldValues }[]
  syncedAt: string
}

export interface LockedPageWrites {
  /** The updates with their locked fields marked (the update workflow leaves them out). */
  changed: ProductToUpdate[]
  held: HeldValues[]
  /** catalog id → product fields the write sets (auto-lock on only). */
  written: Record<string, PlannedFieldValues>
  /** product id → sizes whose prices are locked (the sizes the product had). */
  lockedPriceSizes: Record<string, string[]>
}

export function lockedPageWrites(toWrite: { fresh: ProductToCreate[]; changed: ProductToUpdate[] }, locks: PageFieldLocks): LockedPageWrites {
  const { products: changed, held } = lockUpdates(toWrite.changed, locks.byProductId)
  const written: Record<string, PlannedFieldValues> = {}
  if (locks.autoLockOnAdminEdit) {
    for (const p of toWrite.fresh) written[p.catalogId] = writtenProductFields({ input: p.input })
    for (const p of changed) written[p.catalogId] = writtenProductFields(p)
  }
  const lockedPriceSizes = Object.fromEntries(changed.filter((p) => p.lockedFields?.includes("prices")).map((p) => [p.productId, Object.keys(p.variantIds)]))
  return { changed, held, written, lockedPriceSizes }
}

/** The stock levels of stock-only products, but for sizes whose stock the product locked. */
export function stockOnlyLevels(stockOnly: PlannedRecord[], byProductId: Record<string, LockableField[]>) {
  return stockOnly
    .filter((p) => !stockLocked(p.row!.product_id, byProductId))
    .flatMap((p) =>
      Object.entries(p.stock)
        .filter(([size]) => p.row!.inventory_item_ids?.[size])
        .map(([size, quantity]) => ({ inventoryItemId: p.row!.inventory_item_ids![size], quantity }))
    )
}

/** What the page records after its writes: held values of the products it wrote (and stock-only ones), written values. */
export function recordedFieldValues(
  locked: Pick<LockedPageWrites, "held" | "written">,
  writes: { created: PlannedWrite[]; updated: PlannedWrite[] },
  page: { stockOnly: PlannedRecord[]; syncedAt: string },
  locks: PageFieldLocks
): RecordFieldValuesInput {
  const all = [...writes.created, ...writes.updated]
  const writtenIds = new Set(all.map((w) => w.result.productId))
  const stockHeld = page.stockOnly.flatMap((p): HeldValues[] => {
    const productId = p.row!.product_id
    if (!productId || !stockLocked(productId, locks.byProductId)) return []
    const { held } = applyLocks({ stock: p.stock }, ["stock"], new Set(Object.keys(p.row!.inventory_item_ids ?? {})))
    return held.stock ? [{ productId, catalogId: p.catalogId, held }] : []
  })
  return {
    held: [...locked.held.filter((h) => writtenIds.has(h.productId)), ...stockHeld],
    written: all.flatMap((w) => {
      const values = locked.written[w.catalogId]
      return values ? [{ productId: w.result.productId, catalogId: w.catalogId, values }] : []
    }),
    syncedAt: page.syncedAt,
  }
}

/**
 * The written products as the sale price list sees them: a product with locked prices keeps
 * the sale prices of the sizes it had (only a new size gets the catalog's).
 */
export function salePriceSubjects(written: WrittenProduct[], lockedPriceSizes: Record<string, string[]>): WrittenProduct[] {
  return written.map((w) => {
    const kept = lockedPriceSizes[w.productId]
    return kept ? { ...w, variants: w.variants.filter((v) => !kept.includes(v.sizeKey)) } : w
  })
}
