// Repricing from stored costs: which prices new rules change, and a summary for the admin.
// Pure: the caller reads the stored costs and current amounts and writes the changes.
import { D, type Dec, HUNDRED, parseDecimal } from "./decimal"
import { type PricingContext, type RuleApplied, priceOf } from "./engine"
import type { PricingRules } from "./rules"

export type StoredVariantPrice = {
  variant_id: string
  catalog_id?: string
  /** Size label ("" for a product without sizes). */
  size?: string
  /** The stored cost; null when the catalog has no price (such a variant is left alone). */
  cost: string | null
  context: PricingContext
  /** What the shop sells at now, and its crossed-out price (null when none). */
  current: { amount: string | null; crossed_out: string | null }
  /**
   * The product's prices are locked (a "prices" field lock, src/field-locks): the reprice writes
   * nothing for it, whatever the rules say. See pricesHeldByLock.
   */
  prices_locked?: boolean
}

/**
 * A size whose product has its prices locked keeps the price the shop set: a reprice (the run,
 * its preview and the price guards alike) neither writes nor counts a move for it.
 */
export function pricesHeldByLock(v: Pick<StoredVariantPrice, "prices_locked">): boolean {
  return v.prices_locked === true
}

export type PriceChange = {
  variant_id: string
  catalog_id?: string
  size?: string
  cost: string
  from: { amount: string | null; crossed_out: string | null }
  to: { amount: string; crossed_out: string | null }
  rule: RuleApplied
  /** Selling price change in percent of the current one, 2 decimals ("-12.50"); null when it did not move or was 0/absent. */
  change_percent: string | null
}

export type RepriceSummary = {
  /** Variants looked at, and those with a cost. */
  variants: number
  priced: number
  /** Variants with any price to write (selling or crossed-out). */
  changed: number
  /** Selling price moves, up and down. */
  moved: number
  up: number
  down: number
  /** Only the crossed-out price changes. */
  crossed_out_only: number
  /** Sizes whose prices the rules would change but a "prices" field lock keeps (not in changed or moved). */
  held_by_lock: number
  /** The move furthest from zero, signed, in percent (2 decimals); null when nothing moved. */
  largest_change_percent: string | null
  /** Median of the signed moves in percent (2 decimals); null when nothing moved. */
  median_change_percent: string | null
}

export type RepricePlan = { changes: PriceChange[]; summary: RepriceSummary }

function sameAmount(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b
  const da = parseDecimal(a)
  const db = parseDecimal(b)
  return da !== null && db !== null ? da.eq(db) : a === b
}

/** (to − from) / from × 100, exact then 2 decimals half up; null when from is absent or 0. */
export function changePercent(from: string | null, to: string): Dec | null {
  const f = parseDecimal(from)
  const t = parseDecimal(to)
  if (f === null || t === null || f.isZero()) return null
  return t.minus(f).div(f).times(HUNDRED)
}

/**
 * Every variant whose selling or crossed-out price the rules change, and the summary. Sizes held
 * by a prices lock (pricesHeldByLock) are not changes: they are counted in held_by_lock only.
 */
export function planReprice(variants: Iterable<StoredVariantPrice>, rules: PricingRules): RepricePlan {
  const changes: PriceChange[] = []
  const moves: Dec[] = []
  let count = 0
  let priced = 0
  let up = 0
  let down = 0
  let moved = 0
  let crossedOnly = 0
  let held = 0
  for (const v of variants) {
    count++
    if (v.cost === null) continue
    priced++
    const next = priceOf(v.cost, v.context, rules)
    const amountMoves = !sameAmount(v.current.amount, next.amount)
    const crossedMoves = !sameAmount(v.current.crossed_out, next.crossedOut)
    if (!amountMoves && !crossedMoves) continue
    if (pricesHeldByLock(v)) {
      held++
      continue
    }
    let pct: Dec | null = null
    if (amountMoves) {
      moved++
      const from = parseDecimal(v.current.amount)
      if (from === null || new D(next.amount).gt(from)) up++
      else down++
      pct = changePercent(v.current.amount, next.amount)
      if (pct !== null) moves.push(pct)
    } else crossedOnly++
    changes.push({
      variant_id: v.variant_id,
      ...(v.catalog_id !== undefined ? { catalog_id: v.catalog_id } : {}),
      ...(v.size !== undefined ? { size: v.size } : {}),
      cost: v.cost,
      from: { amount: v.current.amount, crossed_out: v.current.crossed_out },
      to: { amount: next.amount, crossed_out: next.crossedOut },
      rule: next.ruleApplied,
      change_percent: pct === null ? null : pct.toFixed(2),
    })
  }
  return {
    changes,
    summary: {
      variants: count,
      priced,
      changed: changes.length,
      moved,
      up,
      down,
      crossed_out_only: crossedOnly,
      held_by_lock: held,
      largest_change_percent: largest(moves)?.toFixed(2) ?? null,
      median_change_percent: median(moves)?.toFixed(2) ?? null,
    },
  }
}

function largest(values: Dec[]): Dec | null {
  let best: Dec | null = null
  for (const v of values) if (best === null || v.abs().gt(best.abs())) best = v
  return best
}

function median(values: Dec[]): Dec | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a.comparedTo(b))
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : sorted[mid - 1].plus(sorted[mid]).div(2)
}
