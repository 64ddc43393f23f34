// Words for the products the catalog no longer has that the shop keeps (pure): the sync page's
// list and the product widget's line say the same thing.
import type { KeptProduct, WaitingRemovals } from "./types"

/** "The catalog no longer has this product since 6 Dec 2026, 08:08; kept because you discarded its removal." */
export function keptLine(kept: Pick<KeptProduct, "reason" | "since">, when: (iso: string) => string): string {
  const why = kept.reason === "discarded" ? "kept because you discarded its removal" : "kept for an open order"
  return `The catalog no longer has this product since ${when(kept.since)}; ${why}.`
}

/** "30 kept: 28 by your discard, 2 for open orders". */
export function keptCountsText(counts: { discarded: number; open_order: number; total: number }, count: (n: number) => string): string {
  const parts: string[] = []
  if (counts.discarded) parts.push(`${count(counts.discarded)} by your discard`)
  if (counts.open_order) parts.push(`${count(counts.open_order)} for open orders`)
  return `${count(counts.total)} ${counts.total === 1 ? "product" : "products"} the catalog no longer has${parts.length ? `: ${parts.join(", ")}` : ""}`
}

/**
 * The shop's products from the catalog, split by whether the catalog still sells them. `synced`
 * (the status's products_synced) counts the products the sync maps as live, which includes those
 * whose removal the admin discarded and those whose removal waits for a run (held at a pause,
 * confirmed, or removed from the kept list: `removing`), but not those an open order keeps (their
 * removal is pending): those are added, so the total is every catalog product the shop holds.
 * Neither the kept nor those about to go are counted as what the catalog still sells.
 */
export function shopProductsSplit(
  synced: number,
  counts: { discarded: number; open_order: number; total: number; removing?: number }
): { total: number; sold: number; kept: number; removing: number } {
  const total = synced + counts.open_order
  const removing = Math.max(0, counts.removing ?? 0)
  return { total, sold: Math.max(0, total - counts.total - removing), kept: counts.total, removing }
}

/**
 * "230 the catalog still sells · 69 it no longer has, kept by the shop · 1 waiting to be removed".
 * Only a decided removal (confirmed, or removed from the kept list) is "waiting to be removed":
 * those a pause holds wait for the admin's answer ("70 held for your answer: Confirm removes them,
 * Discard keeps them"), and those a run holds until its end wait for the safety brake's check.
 * `waiting` is the server's split (absent from older servers: every one reads as before).
 */
export function shopProductsSplitText(
  split: { sold: number; kept: number; removing: number },
  count: (n: number) => string,
  waiting?: Partial<WaitingRemovals> | null
): string {
  const parts = [`${count(split.sold)} the catalog still sells`]
  if (split.kept > 0) parts.push(`${count(split.kept)} it no longer has, kept by the shop`)
  const awaiting = Math.min(split.removing, Math.max(0, waiting?.awaiting_answer ?? 0))
  const held = Math.min(split.removing - awaiting, Math.max(0, waiting?.held_until_run_end ?? 0))
  const decided = split.removing - awaiting - held
  if (awaiting > 0)
    parts.push(`${count(awaiting)} held for your answer: Confirm removes ${awaiting === 1 ? "it" : "them"}, Discard keeps ${awaiting === 1 ? "it" : "them"}`)
  if (held > 0) parts.push(`${count(held)} held until the run ends, for the safety brake to check`)
  if (decided > 0) parts.push(`${count(decided)} waiting to be removed`)
  return parts.join(" · ")
}

/**
 * What happens to the kept products next, by why they are kept: a discarded removal stays on sale,
 * a product an open order holds is a draft, off sale, until the order is fulfilled or cancelled.
 */
export function keptFateText(counts: { discarded: number; open_order: number }): string {
  const discarded = "Those you kept by a discard stay on sale until you remove them or the catalog sends them again"
  const forOrders = "those an open order holds are drafts, off sale, and go once the order is fulfilled or cancelled"
  if (counts.discarded && counts.open_order) return `${discarded}; ${forOrders}.`
  if (counts.open_order) return "They are drafts, off sale, and go once their order is fulfilled or cancelled."
  return "They stay on sale until you remove them or the catalog sends them again."
}
