// After a reprice writes a product's prices, its fingerprint in the product map gets the prices
// part of what Medusa now holds: else the next full pass would see every repriced product as
// changed and write all their prices again (the same amounts). The part is computed exactly as
// the card's mapping computes it (src/sync/fingerprint.ts), from the cost rows in size order.
import { mapFingerprints, setMapFingerprints } from "../modules/catalog_sync/sql/product-map"
import type { Sql } from "../bulk-write/connection"
import { variantAmounts } from "../sync/card-details"
import { pricesPart, withPricesPart } from "../sync/fingerprint"
import { sortSizes } from "../sync/size-order"

export type RepricedRow = { catalog_id: string; size_key: string; variant_id: string; amount: string | null; crossed_out_amount: string | null }
export type NewPrice = { variant_id: string; catalog_id?: string; to: { amount: string; crossed_out: string | null } }

/**
 * The new fingerprint of each product with a new price, by catalog id (pure). A product is left
 * out when its cost rows are not every size of its map row (its next sync rewrites it).
 */
export function repricedFingerprints(
  maps: { catalog_id: string; fingerprint: string | null; variant_ids: Record<string, string> | null }[],
  rows: readonly RepricedRow[],
  changes: readonly NewPrice[]
): Map<string, string> {
  const toOf = new Map(changes.map((c) => [c.variant_id, c.to]))
  const rowsOf = new Map<string, RepricedRow[]>()
  for (const r of rows) rowsOf.set(r.catalog_id, [...(rowsOf.get(r.catalog_id) ?? []), r])
  const out = new Map<string, string>()
  for (const m of maps) {
    const sizes = rowsOf.get(m.catalog_id) ?? []
    const keys = new Set(Object.keys(m.variant_ids ?? {}))
    if (keys.size !== sizes.length || !sizes.every((r) => keys.has(r.size_key))) continue
    const part = pricesPart(
      sortSizes(sizes, (r) => r.size_key).map((r) => {
        const to = toOf.get(r.variant_id)
        return {
          sizeKey: r.size_key,
          ...variantAmounts(to ? { price: to.amount, old_price: to.crossed_out } : { price: r.amount, old_price: r.crossed_out_amount }),
        }
      })
    )
    const next = withPricesPart(m.fingerprint, part)
    if (next && next !== m.fingerprint) out.set(m.catalog_id, next)
  }
  return out
}

/** Stores the new fingerprints of the products a reprice batch wrote (in its transaction). */
export async function refreshPriceFingerprints(trx: Sql, rows: readonly RepricedRow[], changes: readonly NewPrice[]): Promise<void> {
  const ids = [...new Set(changes.map((c) => c.catalog_id).filter((id): id is string => !!id))]
  if (!ids.length) return
  await setMapFingerprints(trx, repricedFingerprints(await mapFingerprints(trx, ids), rows, changes))
}
