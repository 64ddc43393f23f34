// What the rules preview shows (pure): the summary of every price the rules would move, and
// 10 sampled products, cost → current price → new price and crossed-out. The sample first takes
// one product each override decides (so a new override is visible at once), then products spread
// evenly over the catalog; it depends only on the stored data and the rules, so it does not jump.
import {
  type PriceResult,
  type PricingRules,
  type RepriceSummary,
  type StoredVariantPrice,
  planReprice,
  priceOf,
  pricesHeldByLock,
} from "../../../../../pricing"

/** A stored cost with what the shop sells it at now, and the names the admin knows it by. */
export type PreviewVariant = StoredVariantPrice & { catalog_id: string; size: string; title: string; product_id: string }

export type PreviewRow = {
  catalog_id: string
  product_id: string
  title: string
  size: string
  cost: string
  current: { amount: string | null; crossed_out: string | null }
  next: { amount: string; crossed_out: string | null }
  rule: PriceResult["ruleApplied"]
  minimum_margin_applied: boolean
  /** The product's prices are locked: the reprice keeps its current prices (next is them). */
  prices_locked: boolean
}

export type RulesPreview = { summary: RepriceSummary; sample: PreviewRow[] }

export const PREVIEW_SAMPLE_SIZE = 10
/** At most this many sampled products are picked for being decided by an override. */
const BY_OVERRIDE = 5

/** Sorted by catalog id then size, so "first" and "evenly spread" are stable. */
function byProduct(variants: readonly PreviewVariant[]): Map<string, PreviewVariant[]> {
  const sorted = [...variants].sort((a, b) => compareIds(a.catalog_id, b.catalog_id) || a.size.localeCompare(b.size))
  const out = new Map<string, PreviewVariant[]>()
  for (const v of sorted) {
    const list = out.get(v.catalog_id)
    if (list) list.push(v)
    else out.set(v.catalog_id, [v])
  }
  return out
}

/** 64-bit ids as text: shorter is smaller, then by text. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)
}

export function previewRules(variants: readonly PreviewVariant[], rules: PricingRules, size = PREVIEW_SAMPLE_SIZE): RulesPreview {
  const { summary } = planReprice(variants, rules)
  const products = byProduct(variants.filter((v) => v.cost !== null))
  // The size a product is shown by: its middle size (a product without sizes has one).
  const shown = [...products.values()].map((sizes) => sizes[Math.floor((sizes.length - 1) / 2)])
  const priced = shown.map((v) => ({ v, result: priceOf(v.cost!, v.context, rules) }))

  const picked = new Set<number>()
  const overridesSeen = new Set<number>()
  for (let i = 0; i < priced.length && picked.size < Math.min(BY_OVERRIDE, size); i++) {
    const rule = priced[i].result.ruleApplied
    if (rule.type !== "base" && !overridesSeen.has(rule.index)) {
      overridesSeen.add(rule.index)
      picked.add(i)
    }
  }
  const spread = evenly(priced.length, size)
  for (const i of spread) {
    if (picked.size >= size) break
    picked.add(i)
  }
  // Spread indexes that an override had taken already leave gaps: fill them in order.
  for (let i = 0; i < priced.length && picked.size < size; i++) picked.add(i)
  const sample = [...picked]
    .sort((a, b) => a - b)
    .map((i): PreviewRow => {
      const { v, result } = priced[i]
      // A locked size keeps what it sells at now (when it has a price): the reprice writes nothing for it.
      const held = pricesHeldByLock(v)
      const next =
        held && v.current.amount !== null
          ? { amount: v.current.amount, crossed_out: v.current.crossed_out }
          : { amount: result.amount, crossed_out: result.crossedOut }
      return {
        catalog_id: v.catalog_id,
        product_id: v.product_id,
        title: v.title,
        size: v.size,
        cost: v.cost!,
        current: v.current,
        next,
        rule: result.ruleApplied,
        minimum_margin_applied: result.minimumMarginApplied,
        prices_locked: held,
      }
    })
  return { summary, sample }
}

/** n indexes spread evenly over [0, length) (all of them when there are fewer). */
function evenly(length: number, n: number): number[] {
  if (length <= n) return Array.from({ length }, (_, i) => i)
  return Array.from({ length: n }, (_, i) => Math.floor((i * length) / n))
}
