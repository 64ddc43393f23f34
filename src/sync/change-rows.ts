// Pure: what one written page changed, as change-log rows (mcs_sync_run_change). The page
// workflow's record-changes step stores them through the size policy (change-log-policy.ts).
// Prices are exact decimal text; a product's "selling price" is its lowest selling price over
// its sizes (what a storefront shows as "from"), the same rule before and after the write.
import Decimal from "decimal.js"
import type { ChangeKind } from "./change-log-policy"
import type { ChangedParts } from "./fingerprint"

/** A product written without any price is a draft (map-card); the row says why, in plain words. */
export const NO_PRICE_REASON = "The catalog has no price for any of its sizes, so it stays a draft"

/** Lowest of the given selling amounts (nulls ignored) as "1287.50", or null when none. */
export function lowestPrice(amounts: (string | number | null | undefined)[]): string | null {
  let low: Decimal | null = null
  for (const a of amounts) {
    if (a === null || a === undefined || a === "") continue
    const d = new Decimal(a)
    if (low === null || d.lessThan(low)) low = d
  }
  return low === null ? null : low.toFixed(2)
}

/** A variant's selling amount as planned: the sale amount when below the crossed-out base, else the base. */
export function plannedSellingPrice(variants: { amount: string | null; saleAmount: string | null }[]): string | null {
  return lowestPrice(variants.map((v) => v.saleAmount ?? v.amount))
}

/** What the shop held for a product before the page wrote it (read from Medusa). */
export interface ProductBefore {
  sellingPrice: string | null
  title: string | null
  imageUrls: string[]
}

/** A product the page wrote (created, updated or stock-only), reduced to what its row needs. */
export interface WrittenChange {
  catalogId: string
  productId: string | null
  title: string
  draft: boolean
  sellingPrice: string | null
  /** Parts the update rewrote; null for a created product. */
  parts: ChangedParts | null
  stockChanged: boolean
  /** Image URLs written, only needed when the product's fields changed. */
  imageUrls: string[] | null
  /** Fields the product's locks kept (src/field-locks): the catalog's values were not written. */
  locked?: readonly string[]
}

/**
 * What a product's locks kept out of a write, with the catalog's value where it is one figure
 * or text: `prices` the catalog's selling price (the lowest over its sizes), `title` its title;
 * other fields are named with `true`. Shown as "held by your lock", never as a change.
 */
export type HeldByLock = Partial<Record<"prices" | "title" | "description" | "images" | "categories" | "stock", string | true | null>>

export interface ChangeRecord {
  kind: ChangeKind
  catalog_id: string | null
  product_id: string | null
  title: string | null
  price_changed: boolean
  stock_changed: boolean
  sizes_changed: boolean
  images_changed: boolean
  text_changed: boolean
  price_before: string | null
  price_after: string | null
  reason: string | null
  /** Set when locks kept some of the catalog's values out of the write. */
  held?: HeldByLock | null
}

const blank = {
  price_changed: false,
  stock_changed: false,
  sizes_changed: false,
  images_changed: false,
  text_changed: false,
  price_before: null,
  price_after: null,
  reason: null,
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i])

function rowOfWritten(w: WrittenChange, before: ProductBefore | undefined): ChangeRecord {
  const base = { ...blank, catalog_id: w.catalogId, product_id: w.productId, title: w.title }
  if (w.parts === null) {
    return w.draft ? { ...base, kind: "drafted", reason: NO_PRICE_REASON } : { ...base, kind: "created", price_after: w.sellingPrice }
  }
  // A product whose prices were rewritten to none became a draft.
  if (w.draft && w.parts.prices) {
    return { ...base, kind: "drafted", price_changed: true, price_before: before?.sellingPrice ?? null, reason: NO_PRICE_REASON }
  }
  // The fields hash covers text and images together: the images are compared with what Medusa held.
  const imagesChanged = w.parts.fields && !!before && !!w.imageUrls && !sameList(before.imageUrls, w.imageUrls)
  const titleChanged = !!before && before.title !== w.title
  const row: ChangeRecord = {
    ...base,
    kind: "updated",
    price_changed: w.parts.prices,
    stock_changed: w.stockChanged,
    sizes_changed: w.parts.variants,
    images_changed: imagesChanged,
    text_changed: w.parts.fields && (!imagesChanged || titleChanged),
    price_before: w.parts.prices ? (before?.sellingPrice ?? null) : null,
    price_after: w.parts.prices ? w.sellingPrice : null,
  }
  return withLocksHeld(row, w, before)
}

/**
 * The row without what the product's locks kept: a locked field's catalog value is recorded as
 * held (`held`), never as a change, and the row keeps the shop's title when the title is locked.
 */
export function withLocksHeld(
  row: ChangeRecord,
  w: Pick<WrittenChange, "locked" | "parts" | "sellingPrice" | "title" | "stockChanged">,
  before: ProductBefore | undefined
): ChangeRecord {
  const locked = new Set(w.locked ?? [])
  if (!locked.size) return row
  const held: HeldByLock = {}
  const out = { ...row }
  if (locked.has("prices") && row.price_changed) {
    held.prices = w.sellingPrice
    out.price_changed = false
    out.price_before = null
    out.price_after = null
  }
  if (locked.has("stock") && row.stock_changed) {
    held.stock = true
    out.stock_changed = false
  }
  if (w.parts?.fields) {
    if (locked.has("title") && before && before.title !== w.title) {
      held.title = w.title
      out.title = before.title
    }
    if (locked.has("description")) held.description = true
    if (locked.has("images") && row.images_changed) {
      held.images = true
      out.images_changed = false
    }
    if (locked.has("categories")) held.categories = true
    // Text changed only if an unlocked text field could have: both locked keeps it all.
    if (locked.has("title") && locked.has("description")) out.text_changed = false
  }
  return Object.keys(held).length ? { ...out, held } : out
}

export interface PageChanges {
  created: WrittenChange[]
  updated: WrittenChange[]
  stockOnly: WrittenChange[]
  removed: { catalogId: string; productId: string | null }[]
  rejected: { id: string | null; reason: string }[]
}

/** One row per product the page changed, in catalog order within each kind. */
export function changeRowsOf(page: PageChanges, before: Record<string, ProductBefore>): ChangeRecord[] {
  return [
    ...page.created.map((w) => rowOfWritten(w, undefined)),
    ...page.updated.map((w) => rowOfWritten(w, before[w.catalogId])),
    ...page.stockOnly.map((w) =>
      w.locked?.includes("stock")
        ? { ...blank, kind: "updated" as const, catalog_id: w.catalogId, product_id: w.productId, title: w.title, held: { stock: true as const } }
        : { ...blank, kind: "updated" as const, catalog_id: w.catalogId, product_id: w.productId, title: w.title, stock_changed: true }
    ),
    ...page.removed.map((r) => removedChangeRow({ catalog_id: r.catalogId, product_id: r.productId }, before[r.catalogId]?.title ?? null)),
    ...page.rejected.map((r) => ({ ...blank, kind: "rejected" as const, catalog_id: r.id, product_id: null, title: null, reason: r.reason })),
  ]
}

/** The change-log row of a product whose sizes a run removed once the open order holding them ended: an update of its sizes. */
export function sizesRemovedChangeRow(r: { catalog_id: string; product_id: string }, title: string | null): ChangeRecord {
  return { ...blank, kind: "updated", catalog_id: r.catalog_id, product_id: r.product_id, title, sizes_changed: true }
}

/** The change-log row of a removed product (a page's removals and the held ones applied at a run's end). */
export function removedChangeRow(r: { catalog_id: string; product_id: string | null }, title: string | null): ChangeRecord {
  return { ...blank, kind: "removed", catalog_id: r.catalog_id, product_id: r.product_id, title }
}
