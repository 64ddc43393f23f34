// What the product page's catalog widget says (pure): why a product is a draft, and which
// fields the sync manages.
import type { ProductCatalogLink } from "./types"

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

/** The size cell's mark for a size kept only because of an open order (the admin's one wording). */
export const KEPT_SIZE_MARK = "kept for an open order"

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
