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
  let idsChars = 0
  let skusChars = 0
  const flush = () => {
    if (batch.ids.length + batch.skus.length > 0) batches.push(batch)
    batch = { ids: [], skus: [] }
    idsChars = 0
    skusChars = 0
  }
  for (const id of ids) {
    if (id.length > limits.maxIdsChars) throw new TypeError("an id is longer than the ids limit")
    let next = joinedLength(idsChars, batch.ids.length, id)
    if (batch.ids.length + batch.skus.length >= limits.maxProducts || next > limits.maxIdsChars) {
      flush()
      next = id.length
    }
    batch.ids.push(id)
    idsChars = next
  }
  for (const sku of skus) {
    if (sku.length > limits.maxSkusChars) throw new TypeError("a sku is longer than the skus limit")
    let next = joinedLength(skusChars, batch.skus.length, sku)
    if (batch.ids.length + batch.skus.length >= limits.maxProducts || next > limits.maxSkusChars) {
      flush()
      next = sku.length
    }
    batch.skus.push(sku)
    skusChars = next
  }
  flush()
  return batches
}
