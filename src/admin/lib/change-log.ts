// Words for a run's change log (pure).
import { formatCount, formatCountOf, formatUah } from "./format"
import type { ChangeKind, KeptForOrder, RunChange } from "./types"

const KIND_LABELS: Record<ChangeKind, string> = {
  created: "Created",
  updated: "Updated",
  removed: "Removed",
  drafted: "Drafted",
  rejected: "Rejected",
}

export function changeKindLabel(kind: string): string {
  return KIND_LABELS[kind as ChangeKind] ?? kind
}

type RowChanges = Pick<RunChange, "kind" | "price_changed" | "stock_changed" | "sizes_changed" | "images_changed" | "text_changed" | "held">

/**
 * Whether the row is a product the run counted "Stock only" (its `stock_only` count): the log
 * stores it as an update whose one change is the stock, written or held by a stock lock
 * (src/sync/change-rows.ts). Any other update changed (or had a lock hold) its price, sizes,
 * images or text.
 */
export function isStockOnly(change: RowChanges): boolean {
  if (change.kind !== "updated") return false
  if (change.price_changed || change.sizes_changed || change.images_changed || change.text_changed) return false
  const held = Object.keys(change.held ?? {})
  return (change.stock_changed || held.includes("stock")) && held.every((field) => field === "stock")
}

/** A row's kind as the run's counts name it: "Stock only" for a stock-only update, never "Updated · stock". */
export function changeRowLabel(change: RowChanges): string {
  return isStockOnly(change) ? "Stock only" : changeKindLabel(change.kind)
}

/** ["price", "stock", "sizes"] for an update's flags, in a fixed order. */
export function changedFields(change: Pick<RunChange, "price_changed" | "stock_changed" | "sizes_changed" | "images_changed" | "text_changed">): string[] {
  const out: string[] = []
  if (change.price_changed) out.push("price")
  if (change.stock_changed) out.push("stock")
  if (change.sizes_changed) out.push("sizes")
  if (change.images_changed) out.push("images")
  if (change.text_changed) out.push("text")
  return out
}

const HELD_NAMES: Record<string, string> = {
  prices: "price",
  title: "title",
  description: "description",
  images: "images",
  categories: "categories",
  stock: "stock",
}

/**
 * What the product's locks kept, in words: "price held by your lock (the pricing rules would set
 * 5,963.02 ₴)"; null when nothing was held. Never said as a change: the shop kept its own value.
 * A held price is the shop's rule price over the catalog's cost, never a price the catalog sells
 * at, so it is not called the catalog's.
 */
export function heldByLockText(held: RunChange["held"]): string | null {
  if (!held) return null
  const parts = Object.entries(held).map(([field, value]) => {
    const name = HELD_NAMES[field] ?? field
    if (field === "prices" && typeof value === "string") return `${name} held by your lock (the pricing rules would set ${formatUah(value)})`
    if (field === "title" && typeof value === "string") return `${name} held by your lock (catalog “${value}”)`
    return `${name} held by your lock`
  })
  return parts.length ? parts.join("; ") : null
}

/** "1,200 updated, 40 created" for the rows the size cap left out; null when none. */
export function omittedSummary(omitted: Partial<Record<ChangeKind, number>> | null | undefined): string | null {
  if (!omitted) return null
  const parts = (Object.keys(KIND_LABELS) as ChangeKind[])
    .filter((k) => (omitted[k] ?? 0) > 0)
    .map((k) => `${formatCount(omitted[k]!)} ${KIND_LABELS[k].toLowerCase()}`)
  return parts.length ? parts.join(", ") : null
}

/**
 * A repricing in words: "1,287.50 ₴ → 1,300.10 ₴". A row's prices are the lowest over the sizes,
 * so when another size changed (repriced, added or removed) they are equal: said so, instead of "X → X".
 */
export function priceChangeText(before: string | null | undefined, after: string | null | undefined): string | null {
  if (!before && !after) return null
  if (!before) return formatUah(after)
  if (!after) return `${formatUah(before)} → no price`
  if (before === after) return `${formatUah(after)} (lowest price unchanged; another size changed)`
  return `${formatUah(before)} → ${formatUah(after)}`
}

/**
 * A row of a list whose heading already says why and until when ("Kept for open orders"): the
 * product's name (a link) and what of it is kept, "Кросівки X" + ", size 42" or " (the whole product)".
 */
export function keptForOrderRow(kept: KeptForOrder): { name: string; what: string } {
  const name = kept.title ?? (kept.catalog_id ? `catalog id ${kept.catalog_id}` : kept.product_id)
  return { name, what: kept.kind === "size" ? `, size ${kept.size ?? "unknown"}` : " (the whole product)" }
}

/** The kept-for-orders list's count in words: "1 product and 2 sizes" (by kind when the answer says it). */
export function keptForOrdersCountText(count: number, counts?: { products: number; sizes: number } | null): string {
  if (!counts) return formatCountOf(count, "size or product", "sizes and products")
  const parts = [counts.products ? formatCountOf(counts.products, "product") : null, counts.sizes ? formatCountOf(counts.sizes, "size") : null]
  return parts.filter(Boolean).join(" and ")
}
