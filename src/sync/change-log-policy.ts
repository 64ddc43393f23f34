// How many change-log rows a run stores (pure). A full pass over a large catalog touches every
// product; one row each would grow the table by the catalog's size per resync. So a run keeps
// detailed rows up to a cap, the most telling first within each page, and only counts the rest
// by kind: the run's own counters (created, updated, stock_only, removed, skipped) stay the
// totals, and `omitted` says how many of each kind have no row.

export type ChangeKind = "created" | "updated" | "removed" | "drafted" | "rejected"

export type ChangeRow = {
  kind: ChangeKind
  price_changed?: boolean
  stock_changed?: boolean
  sizes_changed?: boolean
  images_changed?: boolean
  text_changed?: boolean
}

/** Detailed rows a full pass stores at most (a changes run is small by nature, but capped too). */
export const MAX_ROWS_FULL_PASS = 2_000
export const MAX_ROWS_CHANGES_RUN = 10_000

export function rowCap(mode: "changes" | "full" | "full_pass"): number {
  return mode === "changes" ? MAX_ROWS_CHANGES_RUN : MAX_ROWS_FULL_PASS
}

/**
 * Lower is kept first: what an owner must be able to find (a product gone, drafted or refused,
 * a price changed) before a new product, and a stock-only update last (stock moves every poll).
 */
export function rowPriority(row: ChangeRow): number {
  switch (row.kind) {
    case "removed":
      return 0
    case "drafted":
      return 1
    case "rejected":
      return 2
    case "updated":
      if (row.price_changed) return 3
      if (row.sizes_changed || row.text_changed || row.images_changed) return 5
      return 6
    case "created":
      return 4
  }
}

export type Omitted = Partial<Record<ChangeKind, number>>

/**
 * Of one page's rows, those to store given how many the run stored before; the rest counted
 * by kind (to add to the run's `omitted` tally). Stable within a priority (catalog order).
 */
export function selectRowsToStore<T extends ChangeRow>(rows: T[], storedSoFar: number, cap: number): { store: T[]; omitted: Omitted } {
  const room = Math.max(0, cap - storedSoFar)
  const ranked = rows.map((row, index) => ({ row, index })).sort((a, b) => rowPriority(a.row) - rowPriority(b.row) || a.index - b.index)
  const keep = new Set(ranked.slice(0, room).map((r) => r.index))
  const store: T[] = []
  const omitted: Omitted = {}
  rows.forEach((row, index) => {
    if (keep.has(index)) store.push(row)
    else omitted[row.kind] = (omitted[row.kind] ?? 0) + 1
  })
  return { store, omitted }
}

export function addOmitted(a: Omitted, b: Omitted): Omitted {
  const out: Omitted = { ...a }
  for (const [kind, n] of Object.entries(b) as [ChangeKind, number][]) out[kind] = (out[kind] ?? 0) + n
  return out
}

/** Days change-log rows are kept (the run rows themselves stay): older rows are deleted by the wiring phase's cleanup. */
export const CHANGE_LOG_RETENTION_DAYS = 30
