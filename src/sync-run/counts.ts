// What a run did, as stored on mcs_sync_run.
import type { RejectedItem } from "../catalog-client/items"
import { cleanExcerpt, cleanText } from "../catalog-client/sanitise"

export interface RunCounts {
  pages: number
  items_seen: number
  created: number
  updated: number
  stock_only: number
  unchanged: number
  removed: number
  skipped: number
  swept: number
  requests_used: number
}

export function emptyCounts(): RunCounts {
  return { pages: 0, items_seen: 0, created: 0, updated: 0, stock_only: 0, unchanged: 0, removed: 0, skipped: 0, swept: 0, requests_used: 0 }
}

/** Rejected items kept on the run row; the count goes on in `skipped`. */
export const MAX_REJECTED_ON_RUN = 500

/** Characters of the raw item kept on the run when its id could not be read. */
export const EXCERPT_LENGTH = 200

/**
 * A rejected item (or a dropped part of a kept one) as stored on mcs_sync_run.rejected_items:
 * the catalog id when one could be read, the field when known, a reason in plain words, and
 * the first 200 characters of the raw item when there is no id. Every text is cleaned, so the
 * run record can always be saved. The admin UI reads `id` and `reason` (and shows `field`).
 */
export interface RunRejectedItem {
  id: string | null
  field?: string
  reason: string
  excerpt?: string
  /** true for a warning: the item was kept, only the named part was dropped. */
  kept?: true
}

export function toRunRecord(item: RejectedItem, opts: { kept?: boolean } = {}): RunRejectedItem {
  const record: RunRejectedItem = { id: item.id === null ? null : cleanText(item.id), reason: cleanExcerpt(item.reason, 500) }
  if (item.field) record.field = cleanExcerpt(item.field, 100)
  if (item.id === null && item.raw) record.excerpt = cleanExcerpt(item.raw, EXCERPT_LENGTH)
  if (opts.kept) record.kept = true
  return record
}

/** One log line for a rejected item or warning (no raw data beyond the excerpt). */
export function rejectedLogLine(record: RunRejectedItem): string {
  const what = record.kept ? "kept item" : "skipped item"
  const where = record.field ? ` [${record.field}]` : ""
  const excerpt = record.excerpt ? ` (received: ${record.excerpt})` : ""
  return `catalog sync: ${what} ${record.id ?? "(no id)"}${where}: ${record.reason}${excerpt}`
}
