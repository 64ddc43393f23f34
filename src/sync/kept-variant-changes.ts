// Pure: which kept variants a write would actually change. A size change or a price change plans
// every kept variant of the product; the shop's own edit changes (and Medusa emits
// product-variant.updated for) only the variants whose values differ, so each write path writes
// only those and emits one product-variant.updated per variant written.
import { mergeMetadata } from "@medusajs/framework/utils"
import { normalizedDecimal } from "../pricing/normalized-decimal"

/** A kept variant as the shop holds it: its fields and base price (`hasPriceSet` false: no price set yet). */
export interface StoredVariant {
  id: string
  title: string | null
  sku: string | null
  variant_rank: number | null
  metadata: Record<string, unknown> | null
  hasPriceSet: boolean
  /** The base price in the sync's currency (null: none in the set). */
  amount: string | null
}

export interface WantedVariant {
  variantId: string
  rank?: number
  title: string
  sku: string
  metadata: Record<string, unknown>
  amount: string | null
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a as object).sort()
  const kb = Object.keys(b as object).sort()
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}

/** Title, SKU, rank or metadata (merged into the stored, as the product module's update merges it) differ. */
export function variantFieldsChanged(
  stored: Pick<StoredVariant, "title" | "sku" | "variant_rank" | "metadata"> | undefined,
  wanted: Omit<WantedVariant, "amount">
): boolean {
  if (!stored) return true
  if (stored.title !== wanted.title || stored.sku !== wanted.sku) return true
  if (wanted.rank !== undefined && stored.variant_rank !== wanted.rank) return true
  const before = stored.metadata ?? {}
  return !sameJson(mergeMetadata({ ...before }, wanted.metadata), before)
}

/** The base price differs: another amount, a price to add or to remove, or no price set yet. */
export function variantPriceChanged(stored: StoredVariant | undefined, wanted: WantedVariant): boolean {
  if (!stored || !stored.hasPriceSet) return true
  if (wanted.amount === null) return stored.amount !== null
  return stored.amount === null || normalizedDecimal(stored.amount) !== normalizedDecimal(wanted.amount)
}

/** The kept variants whose fields, and those whose price, would change. */
export function changedKeptVariants<T extends WantedVariant>(stored: StoredVariant[], kept: { fields: T[]; prices: T[] }): { fields: T[]; prices: T[] } {
  const byId = new Map(stored.map((s) => [s.id, s]))
  return {
    fields: kept.fields.filter((v) => variantFieldsChanged(byId.get(v.variantId), v)),
    prices: kept.prices.filter((v) => variantPriceChanged(byId.get(v.variantId), v)),
  }
}
