// What the product page's catalog widget says (pure): why a product is a draft, and which
// fields the sync manages.
import { changeRowLabel, changedFields, heldByLockText, isStockOnly, priceChangeText } from "./change-log"
import { formatUah } from "./format"
import type { KeptProduct, ProductCatalogLink, RunChange } from "./types"

export type SizePrice = {
  variant_id: string
  size: string
  sku: string | null
  selling: string | null
  crossed_out: string | null
  /** The size's stored wholesale cost (admin routes only); null until the sync has stored it. */
  cost: string | null
  markup_percent: string | null
  /** Present for a size the catalog removed that the shop keeps while an open order reserves it. */
  kept_for_order?: { since: string } | null
}

/**
 * The size cell's badge for a size kept only because of an open order: one short word, so the
 * cell stays one line in the side column (the line under the table, keptSizesNote, explains it).
 */
export const KEPT_SIZE_BADGE = "kept"

/** The badge's tooltip: "Kept for an open order since 6 Dec 2026, 08:08". */
export function keptSizeTitle(since: string, when: (iso: string) => string): string {
  return `Kept for an open order since ${when(since)}`
}

/**
 * The line under the prices when sizes are kept for open orders: "Size M is kept for an open order:
 * the catalog no longer has it; the shop removes it once the order is fulfilled or cancelled."
 * Null when none is.
 */
export function keptSizesNote(sizes: Pick<SizePrice, "size" | "kept_for_order">[]): string | null {
  const kept = sizes.filter((s) => s.kept_for_order).map((s) => s.size || "—")
  if (kept.length === 0) return null
  const names = kept.length === 1 ? kept[0] : `${kept.slice(0, -1).join(", ")} and ${kept[kept.length - 1]}`
  return kept.length === 1
    ? `Size ${names} is kept for an open order: the catalog no longer has it; the shop removes it once the order is fulfilled or cancelled.`
    : `Sizes ${names} are kept for open orders: the catalog no longer has them; the shop removes each once its order is fulfilled or cancelled.`
}

/** Fields every sync writes over (src/sync/catalog-product.ts): manual edits to them do not last. */
export const MANAGED_FIELDS = [
  "title",
  "subtitle",
  "description",
  "handle",
  "status",
  "images and thumbnail",
  "sizes (variants) and their SKUs",
  "prices and the crossed-out price",
  "stock levels",
  "weight and dimensions",
  "material and origin country",
  "categories, brand and model",
]

/**
 * Why a synced product is a draft, or null when it is not one. The map's "draft" is a removal
 * kept as draft (by the removal setting); a draft the sync keeps active in its map is a card
 * the catalog sells without a price.
 */
export function draftReason(
  productStatus: string | null | undefined,
  link: Pick<ProductCatalogLink, "status">,
  sizes: SizePrice[] | null,
  keptFor: "discarded" | "open_order" | null = null
): string | null {
  // The map's "draft" also marks a removal held for an open order, whatever the removal setting.
  if (keptFor === "open_order") return "It is a draft, off sale, while an open order holds it; the shop removes it once the order is fulfilled or cancelled."
  if (link.status === "draft") return "The catalog no longer sells this product; the shop keeps it as a draft (removal setting: keep as draft)."
  if (link.status === "removed") return "The catalog removed this product."
  if (productStatus !== "draft") return null
  if (sizes && sizes.length > 0 && sizes.every((s) => s.selling === null))
    return "The catalog has no price for this product, so it is kept as a draft until one appears."
  if (sizes && sizes.some((s) => s.selling === null)) return "The catalog has no price for some sizes."
  return "The product is a draft in the shop."
}

/** The widget's badge: the shop's status wins over the map's, so it never says "Active" beside Medusa's "Draft". */
export function catalogBadge(
  productStatus: string | null | undefined,
  link: Pick<ProductCatalogLink, "status">
): { label: string; color: "green" | "orange" | "grey" | "red" } {
  if (link.status === "removed") return { label: "Removed from catalog", color: "red" }
  if (link.status === "draft") return { label: "Removed, kept as draft", color: "orange" }
  if (productStatus === "draft") return { label: "Draft", color: "orange" }
  return { label: "Synced", color: "green" }
}

/**
 * The label of the widget's last change, by who made it: a reprice prices the shop's products
 * from their stored costs with the shop's own pricing rules, so its change is not the catalog's.
 */
export function lastChangeLabel(change: { run_mode?: string | null }): string {
  return change.run_mode === "reprice" ? "Last change (your pricing rules)" : "Last catalog change"
}

/**
 * A size's markup over its cost, flagged when the shop sells below cost (a locked price the cost
 * rose past, a negative rule), as the price guards flag a rules change that would: "−7.32 %" with
 * belowCost (the widget's cell is red; belowCostNote is the line under the table). Null markup
 * (no cost, no price) is "—".
 */
export function markupText(markupPercent: string | null | undefined): { text: string; belowCost: boolean } {
  if (!markupPercent) return { text: "—", belowCost: false }
  const negative = markupPercent.trim().startsWith("-")
  if (!negative) return { text: `${markupPercent} %`, belowCost: false }
  // The figure only: the flag ("· below cost") pushed the Markup column out of the side column; the
  // cell is red and the line under the table (belowCostNote) says it.
  return { text: `−${markupPercent.trim().slice(1)} %`, belowCost: true }
}

/** The line under the prices when some size sells below cost; null when none does. */
export function belowCostNote(sizes: Pick<SizePrice, "markup_percent">[]): string | null {
  const below = sizes.filter((s) => markupText(s.markup_percent).belowCost).length
  if (below === 0) return null
  const which = below === sizes.length ? (below === 1 ? "This size sells" : `All ${below} sizes sell`) : `${below} ${below === 1 ? "size sells" : "sizes sell"}`
  return `${which} below cost: the shop's price is under what the catalog charges. Check the price lock or the pricing rules.`
}

/**
 * What the widget's last-change line shows. For a product the catalog no longer has (kept by a
 * discard or for an open order) the catalog's last change is its removal, at the kept line's
 * date: an older row (its creation, a stock update) would contradict that line. Only a reprice
 * after the removal (the shop's own rules, labelled so) is newer news.
 */
export type LastChange = { kind: "change"; change: RunChange } | { kind: "removed"; since: string; run_id: string | null }

export function lastChangeOf(changes: RunChange[] | null | undefined, kept: Pick<KeptProduct, "since" | "run_id"> | null): LastChange | null {
  const newest = changes?.[0] ?? null
  if (!kept) return newest ? { kind: "change", change: newest } : null
  if (newest && newest.run_mode === "reprice" && Date.parse(newest.created_at) > Date.parse(kept.since)) return { kind: "change", change: newest }
  return { kind: "removed", since: kept.since, run_id: kept.run_id }
}

export const REMOVED_FROM_CATALOG = "Removed from the catalog"

/**
 * The sizes whose price a lock held, with the pricing rules' price for each, in the table's order:
 * the sizes where what the rules would set (`held`, the lock view's per-size value) differs from
 * the shop's price. Null when that cannot be told for this row: no per-size value, or one from
 * another write than the row's (its lowest is not the row's figure, the lowest over all sizes).
 */
export function heldPriceSizes(
  rowFigure: string | null | undefined,
  held: unknown,
  sizes: Pick<SizePrice, "size" | "selling">[] | null
): { size: string; price: string | null }[] | null {
  if (!held || typeof held !== "object") return null
  const perSize = held as Record<string, string | null>
  const figures = Object.values(perSize).filter((v): v is string => typeof v === "string" && v !== "")
  if (!figures.length || !rowFigure) return null
  const lowest = Math.min(...figures.map(Number))
  if (lowest !== Number(rowFigure)) return null
  // A card without sizes keeps its price under the empty size key.
  const one = Object.keys(perSize).length === 1 && "" in perSize
  if (!sizes) return null
  const out: { size: string; price: string | null }[] = []
  for (const s of sizes) {
    const key = one && sizes.length === 1 ? "" : s.size
    if (!(key in perSize)) continue
    const rules = perSize[key]
    const same = rules === s.selling || (rules !== null && s.selling !== null && Number(rules) === Number(s.selling))
    if (!same) out.push({ size: key, price: rules })
  }
  return out
}

/**
 * "price held by your lock (the pricing rules would set 1,481.09 ₴ for size 40)": the figure of
 * the size(s) the lock held, never the row's lowest over all sizes (another size's price). Three
 * or more sizes are counted, their prices are under Field locks. Without per-size figures, no figure.
 */
export function heldPriceText(held: { size: string; price: string | null }[] | null): string {
  if (!held || held.length === 0) return "price held by your lock"
  const one = (h: { size: string; price: string | null }) => `${h.price === null ? "no price" : formatUah(h.price)}${h.size ? ` for size ${h.size}` : ""}`
  if (held.length <= 2) return `price held by your lock (the pricing rules would set ${held.map(one).join(", ")})`
  return `price held by your lock for ${held.length} sizes (the pricing rules' prices for them are below, under Field locks)`
}

/**
 * The last change's words after its label, e.g. "Updated (price, sizes) · 1,200.00 ₴ → 1,300.00 ₴"
 * or "Stock only": a stock-only row does not list "(stock)" again, and its held stock reads
 * "held by your lock". `heldSizes` is heldPriceSizes for the row (the lock's per-size prices).
 */
export function lastChangeText(change: RunChange, heldSizes: { size: string; price: string | null }[] | null): string {
  const stockOnly = isStockOnly(change)
  const fields = stockOnly ? [] : changedFields(change)
  const parts = [`${changeRowLabel(change)}${fields.length ? ` (${fields.join(", ")})` : ""}`]
  const price = change.price_before || change.price_after ? priceChangeText(change.price_before, change.price_after) : null
  if (price) parts.push(price)
  const { prices, stock, ...rest }: NonNullable<RunChange["held"]> = change.held ?? {}
  const held: string[] = []
  if (prices !== undefined) held.push(heldPriceText(heldSizes))
  const others = heldByLockText(rest)
  if (others) held.push(others)
  if (stock !== undefined) held.push(stockOnly ? "held by your lock" : "stock held by your lock")
  if (held.length) parts.push(held.join("; "))
  return parts.join(" · ")
}
