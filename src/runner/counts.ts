// What a run did, as stored on catalog_sync_run.
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
