// Words and scales for the run history (pure). The server folds and filters (see the
// /history route); the admin only labels what it gets.

import { formatCount } from "./format"
import type { Run } from "./types"

type RunCountsOf = Pick<Run, "created" | "updated" | "stock_only" | "unchanged" | "removed" | "swept" | "skipped">

/**
 * A run's counts as every screen names them (the history's columns, the Last run card, the run
 * page, the chip): "Updated" and "Stock only" apart, as the run stores them; "Removed" with the
 * sweep's removals. The history leaves Unchanged out.
 */
export const RUN_COUNT_FIELDS: {
  key: "created" | "updated" | "stock_only" | "unchanged" | "removed" | "skipped"
  label: string
  value: (run: RunCountsOf) => number
}[] = [
  { key: "created", label: "Created", value: (r) => r.created ?? 0 },
  { key: "updated", label: "Updated", value: (r) => r.updated ?? 0 },
  { key: "stock_only", label: "Stock only", value: (r) => r.stock_only ?? 0 },
  { key: "unchanged", label: "Unchanged", value: (r) => r.unchanged ?? 0 },
  { key: "removed", label: "Removed", value: (r) => (r.removed ?? 0) + (r.swept ?? 0) },
  { key: "skipped", label: "Rejected", value: (r) => r.skipped ?? 0 },
]

/** The history table's count columns: every count but Unchanged. */
export const HISTORY_COUNT_FIELDS = RUN_COUNT_FIELDS.filter((f) => f.key !== "unchanged")

/** "28 polls, no changes" / "1 poll, no changes". */
export function quietLabel(count: number): string {
  return `${formatCount(count)} ${count === 1 ? "poll" : "polls"}, no changes`
}

/** "08:08" for one poll or polls within one minute, "08:08–09:40" for a span: never "08:08–08:08". */
export function quietSpan(firstAt: string, lastAt: string, timeOf: (iso: string) => string): string {
  const first = timeOf(firstAt)
  const last = timeOf(lastAt)
  return first === last ? first : `${first}–${last}`
}

/** The admin's IANA zone: the shop owner's days for folding and the chart (Medusa stores have no zone). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"
  } catch {
    return "UTC"
  }
}

/** Bar heights in percent of the tallest day; a day with changes is at least 4 % so it shows. */
export function barHeights(values: number[]): number[] {
  const max = Math.max(0, ...values)
  if (max === 0) return values.map(() => 0)
  return values.map((v) => (v <= 0 ? 0 : Math.max(4, Math.round((v * 100) / max))))
}

/** "2026-11-23" -> "23 Nov". */
export function shortDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!m) return day
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
  return `${Number(m[3])} ${months[Number(m[2]) - 1] ?? m[2]}`
}
