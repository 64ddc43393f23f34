// Run history made readable (pure): runs that changed nothing fold into one row per day
// ("28 polls, no changes"), and products changed per day for the last days' chart.
//
// Days are calendar days in a named IANA time zone. Medusa 2.21 stores have no time zone
// setting, so the admin sends its browser's zone (the shop owner's) and UTC is the fallback.
// A run belongs to the day it started (a run from 23:58 to 00:03 counts on the first day).

import { continuesAnswer } from "../../../../sync/run-display-state"

export type HistoryRun = {
  id: string
  status: string
  trigger: string
  mode: string
  started_at: string | Date | null
  finished_at?: string | Date | null
  created_at: string | Date
  created: number
  updated: number
  stock_only: number
  removed: number
  swept: number
  skipped: number
  /** Read for the run that continues an answered pause (run-display-state.ts). */
  progress?: unknown
}

export type HistoryRow<R extends HistoryRun = HistoryRun> =
  | { type: "run"; run: R }
  | {
      type: "quiet"
      day: string
      count: number
      /** The runs' triggers, e.g. { schedule: 27, manual: 1 } */
      triggers: Record<string, number>
      first_at: string
      last_at: string
    }

/** Products a run changed (created, updated, stock only, removed or swept). */
export function productsChanged(run: HistoryRun): number {
  return (run.created || 0) + (run.updated || 0) + (run.stock_only || 0) + (run.removed || 0) + (run.swept || 0)
}

/** A run worth its own row: it changed or rejected something, or did not simply succeed. */
export function hadChanges(run: HistoryRun): boolean {
  return productsChanged(run) > 0 || (run.skipped || 0) > 0
}

/** Polls the schedule started (or retried) that succeeded and changed nothing. A run an admin started keeps its row. */
export const FOLDED_TRIGGERS = ["schedule", "retry"]

/** The run that carries out the admin's answer to a pause keeps its row, changes or not: the admin looks for it. */
function isQuiet(run: HistoryRun): boolean {
  return run.status === "succeeded" && FOLDED_TRIGGERS.includes(run.trigger) && !hadChanges(run) && !continuesAnswer(run)
}

export function startOf(run: HistoryRun): Date {
  return new Date(run.started_at ?? run.created_at)
}

/** "2026-11-23" in the zone; an unknown zone is refused by isTimeZone before it gets here. */
export function dayKey(at: Date, timeZone: string): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at)
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-CA", { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/**
 * Runs newest first -> rows newest first. Every run that changed something, failed, was
 * interrupted or was started by an admin keeps its row; the quiet polls of a day become one
 * row, placed where the day's newest quiet poll was.
 */
export function foldHistory<R extends HistoryRun>(runs: R[], timeZone = "UTC"): HistoryRow<R>[] {
  const rows: HistoryRow<R>[] = []
  const quietByDay = new Map<string, Extract<HistoryRow<R>, { type: "quiet" }>>()
  for (const run of runs) {
    if (!isQuiet(run)) {
      rows.push({ type: "run", run })
      continue
    }
    const at = startOf(run)
    const day = dayKey(at, timeZone)
    const folded = quietByDay.get(day)
    if (!folded) {
      const row = { type: "quiet" as const, day, count: 1, triggers: { [run.trigger]: 1 }, first_at: at.toISOString(), last_at: at.toISOString() }
      quietByDay.set(day, row)
      rows.push(row)
    } else {
      folded.count++
      folded.triggers[run.trigger] = (folded.triggers[run.trigger] ?? 0) + 1
      if (at.toISOString() < folded.first_at) folded.first_at = at.toISOString()
      if (at.toISOString() > folded.last_at) folded.last_at = at.toISOString()
    }
  }
  return rows
}

/** "28 polls, no changes" / "1 poll, no changes". */
export function quietLabel(count: number): string {
  return `${count} ${count === 1 ? "poll" : "polls"}, no changes`
}

/** Products changed per day for the `days` days up to `now` (oldest first, zero days included). */
export function changesPerDay(runs: HistoryRun[], opts: { days: number; now: Date; timeZone?: string }): { day: string; changed: number; runs: number }[] {
  const timeZone = opts.timeZone ?? "UTC"
  const out: { day: string; changed: number; runs: number }[] = []
  const index = new Map<string, number>()
  for (let i = opts.days - 1; i >= 0; i--) {
    // 24-hour steps; a day met twice around a DST change is kept once.
    const day = dayKey(new Date(opts.now.getTime() - i * 86_400_000), timeZone)
    if (index.has(day)) continue
    index.set(day, out.length)
    out.push({ day, changed: 0, runs: 0 })
  }
  for (const run of runs) {
    const slot = index.get(dayKey(startOf(run), timeZone))
    if (slot === undefined) continue
    out[slot].changed += productsChanged(run)
    out[slot].runs++
  }
  return out
}
