// Splits a stock request for any number of products into API-sized requests: at most 200
// products each, `ids` at most 4000 characters and `skus` at most 8000 characters.

export interface StockBatch {
  ids: string[]
  skus: string[]
}

export interface StockBatchLimits {
  maxProducts: number
  maxIdsChars: number
  maxSkusChars: number
}

export const STOCK_BATCH_LIMITS: StockBatchLimits = { maxProducts: 200, maxIdsChars: 4000, maxSkusChars: 8000 }

/** Characters of a comma-joined list once another value is appended. */
function joinedLength(current: number, count: number, value: string): number {
  return current + (count > 0 ? 1 : 0) + value.length
}

/** Packs ids first, then skus, greedily; every value lands in exactly one batch. */
export function planStockBatches(ids: string[], skus: string[], limits: StockBatchLimits = STOCK_BATCH_LIMITS): StockBatch[] {
  const batches: StockBatch[] = []
  let batch: StockBatch = { ids: [], skus: [] }
  const chars = { ids: 0, skus: 0 }
  const flush = () => {
    if (batch.ids.length + batch.skus.length > 0) batches.push(batch)
    batch = { ids: [], skus: [] }
    chars.ids = 0
    chars.skus = 0
  }
  const pack = (field: keyof StockBatch, values: string[], maxChars: number, tooLong: string) => {
    for (const value of values) {
      if (value.length > maxChars) throw new TypeError(tooLong)
      let next = joinedLength(chars[field], batch[field].length, value)
      if (batch.ids.length + batch.skus.length >= limits.maxProducts || next > maxChars) {
        flush()
        next = value.length
      }
      batch[field].push(value)
      chars[field] = next
    }
  }
  pack("ids", ids, limits.maxIdsChars, "an id is longer than the ids limit")
  pack("skus", skus, limits.maxSkusChars, "a sku is longer than the skus limit")
  flush()
  return batches
}
