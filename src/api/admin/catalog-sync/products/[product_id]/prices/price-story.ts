// A synced product's prices per size as the shop charges them (pure). See README "Prices":
// the base price (uah) is the crossed-out price when the plugin's sale list holds a lower
// price for the variant, which is then the selling price; otherwise the base price sells.
// Cost and markup come from the size's stored cost (mcs_variant_cost; admin routes only,
// never product metadata or a store route).
import Decimal from "decimal.js"
import { compareSizes } from "../../../../../../sync/size-order"

export type PriceRow = { price_set_id: string; price_list_id?: string | null; currency_code: string; amount: unknown; raw_amount?: { value?: string } | null }
export type VariantRow = { id: string; title: string | null; sku?: string | null; price_set_id: string | null; variant_rank?: number | null }

export type SizePrice = {
  variant_id: string
  size: string
  sku: string | null
  /** Exact decimal text, 2 decimals; null when the variant has no uah price (a draft). */
  selling: string | null
  crossed_out: string | null
  /** The size's wholesale cost as the catalog sent it, 2 decimals; null when not stored. */
  cost: string | null
  /** (selling − cost) / cost in percent, 2 decimals; null without both. */
  markup_percent: string | null
  /**
   * Present only for a size the catalog removed that the shop keeps because an open order reserved
   * its stock (mcs_pending_removal), with since when: the widget marks it.
   */
  kept_for_order?: { since: string }
}

/** A size removal an open order holds back (mcs_pending_removal, kind "size": `subject_id` is the variant). */
export type PendingSizeRow = { kind: string; subject_id: string; created_at: Date | string }

/**
 * The sizes of a product kept for an open order, by variant id, with since when: its pending size
 * removals, less those the catalog sent again (the map claims the variant: back on sale, not kept).
 */
export function keptSizesOf(pending: readonly PendingSizeRow[], claimedVariants: ReadonlySet<string>): Map<string, string> {
  const kept = new Map<string, string>()
  for (const row of pending) {
    if (row.kind !== "size" || claimedVariants.has(row.subject_id)) continue
    const since = new Date(row.created_at).toISOString()
    const before = kept.get(row.subject_id)
    if (!before || since < before) kept.set(row.subject_id, since)
  }
  return kept
}

/**
 * The shop's variant order: by variant_rank (a variant without one after the ranked), as the store
 * routes list them (src/api/store/variant-order.ts); equal ranks by size order (the sync ranks the
 * catalog's sizes in size order, and a size kept for an open order keeps the rank it had, so it may
 * share one with a size ranked since), then as listed.
 */
export function inShopOrder<T extends Pick<VariantRow, "title" | "variant_rank">>(variants: readonly T[]): T[] {
  return variants
    .map((v, i) => ({ v, i }))
    .sort((a, b) => (a.v.variant_rank ?? Infinity) - (b.v.variant_rank ?? Infinity) || compareSizes(a.v.title ?? "", b.v.title ?? "") || a.i - b.i)
    .map(({ v }) => v)
}

/** The markup a selling price makes over a cost, in percent ("30.00"); null without both or at a zero cost. */
export function markupPercent(selling: string | null, cost: string | null): string | null {
  if (selling === null || cost === null) return null
  const c = new Decimal(cost)
  if (c.lte(0)) return null
  return new Decimal(selling).minus(c).div(c).times(100).toFixed(2)
}

/** Medusa's exact text (raw_amount, bignumber.js at 20 digits), as "1287.50". */
export function amountText(price: Pick<PriceRow, "amount" | "raw_amount">): string | null {
  const raw = price.raw_amount?.value ?? (price.amount === null || price.amount === undefined ? null : String(price.amount))
  if (raw === null) return null
  try {
    return new Decimal(raw).toFixed(2)
  } catch {
    return null
  }
}

export function priceStory(
  variants: VariantRow[],
  prices: PriceRow[],
  saleListId: string | null,
  costs: ReadonlyMap<string, string | null> = new Map(),
  currency = "uah",
  keptSizes: ReadonlyMap<string, string> = new Map()
): SizePrice[] {
  return inShopOrder(variants).map((v) => {
    const mine = prices.filter((p) => p.price_set_id === v.price_set_id && p.currency_code === currency)
    const base = mine.find((p) => !p.price_list_id)
    const sale = saleListId ? mine.find((p) => p.price_list_id === saleListId) : undefined
    const baseText = base ? amountText(base) : null
    const saleText = sale ? amountText(sale) : null
    // Medusa sells the lower of the two; only a lower sale price crosses the base price out.
    const saleIsLower = baseText !== null && saleText !== null && new Decimal(saleText).lt(baseText)
    const selling = saleIsLower ? saleText : (baseText ?? saleText)
    const storedCost = costs.get(v.id) ?? null
    const cost = storedCost === null ? null : new Decimal(storedCost).toFixed(2)
    return {
      variant_id: v.id,
      size: v.title ?? "",
      sku: v.sku ?? null,
      selling,
      crossed_out: saleIsLower ? baseText : null,
      cost,
      markup_percent: markupPercent(selling, cost),
      ...(keptSizes.has(v.id) ? { kept_for_order: { since: keptSizes.get(v.id)! } } : {}),
    }
  })
}
