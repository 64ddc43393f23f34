// How many workflows write a page's creates (and updates) at once: from
// CATALOG_SYNC_WRITE_CONCURRENCY, an integer 1..4, default 2. A bad value never yields NaN
// (which made every page a single chunk of NaN size).
export const DEFAULT_WRITE_CONCURRENCY = 2
export const MAX_WRITE_CONCURRENCY = 4

export function writeConcurrency(value: string | undefined): number {
  const text = value?.trim() ?? ""
  if (!/^[0-9]+$/.test(text)) return DEFAULT_WRITE_CONCURRENCY
  return Math.min(MAX_WRITE_CONCURRENCY, Math.max(1, Number(text)))
}
