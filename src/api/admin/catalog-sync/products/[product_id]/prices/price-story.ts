// A synced product's prices per size as the shop charges them (pure). See README "Prices":
// the base price (uah) is the crossed-out price when the plugin's sale list holds a lower
// price for the variant, which is then the selling price; otherwise the base price sells.
// Cost and markup come from the size's stored cost (mcs_variant_cost; admin routes only,
// never product metadata or a store route).
import Decimal from "decimal.js"

export type PriceRow = { price_set_id: string; price_list_id?: string | null; currency_code: string; amount: unknown; raw_amount?: { value?: string } | null }
export type VariantRow = { id: string; title: string | null; sku?: string | null; price_set_id: string | null }

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
  currency = "uah"
): SizePrice[] {
  return variants.map((v) => {
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
    }
  })
}
