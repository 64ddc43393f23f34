// Price guards: a rules change that would sell below cost, show a crossed-out price from a
// discount over a sane cap, or move more than a set share of the shop's prices is not saved until
// the admin confirms it, with the preview in front of them. Pure: the caller passes the stored
// costs and prices (the pricing preview's own reading) and the rules.
import { D, parseDecimal } from "./decimal"
import { priceOf } from "./engine"
import { pricesHeldByLock, type RepriceSummary, type StoredVariantPrice } from "./reprice"
import type { PricingRules } from "./rules"

/** A crossed-out price more than this percent above the selling price needs a confirmation. */
export const DISCOUNT_CAP_PERCENT = "70"
/** A change that moves more than this percent of the priced sizes' selling prices needs one. */
export const MOVED_SHARE_PERCENT = "50"

export type PriceGuardCode = "below_cost" | "discount_over_cap" | "moves_many_prices"
export type PriceGuard = { code: PriceGuardCode; message: string; count?: number }

/** A count as the admin shows every count: "7,286", never "7286". */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",")

/** Rules fields that sell below cost on purpose: a negative base or override markup. */
function negativeMarkups(rules: PricingRules): string[] {
  const fields: string[] = []
  if (new D(rules.base_markup_percent).isNegative()) fields.push(`base markup ${rules.base_markup_percent} %`)
  rules.overrides.forEach((o, i) => {
    if (new D(o.markup_percent).isNegative()) fields.push(`override ${i + 1} (${o.type}) ${o.markup_percent} %`)
  })
  return fields
}

/** The crossed-out rule as a discount percent off the crossed-out price (markup rules excepted: they are over cost). */
function discountOf(rules: PricingRules): string | null {
  return rules.crossed_out.type === "discount" ? rules.crossed_out.discount_percent : null
}

/**
 * The guards a rules change trips. `variants` are the stored costs with today's prices (sizes
 * without a cost are left out; sizes held by a prices lock are not judged), `summary` the reprice
 * plan's counts for the same variants (its moves leave locked sizes out).
 */
export function priceGuardsOf(rules: PricingRules, variants: readonly StoredVariantPrice[], summary: Pick<RepriceSummary, "priced" | "moved">): PriceGuard[] {
  const guards: PriceGuard[] = []
  let belowCost = 0
  for (const v of variants) {
    // A size whose prices are locked keeps its price: the reprice sells it at nothing new.
    if (v.cost === null || parseDecimal(v.cost) === null || pricesHeldByLock(v)) continue
    if (new D(priceOf(v.cost, v.context, rules).amount).lt(v.cost)) belowCost++
  }
  const negative = negativeMarkups(rules)
  if (belowCost > 0 || negative.length > 0) {
    guards.push({
      code: "below_cost",
      count: belowCost,
      message: `${grouped(belowCost)} size${belowCost === 1 ? "" : "s"} would sell below cost${negative.length ? ` (${negative.join(", ")})` : ""}`,
    })
  }
  const discount = discountOf(rules)
  if (discount !== null && new D(discount).gt(DISCOUNT_CAP_PERCENT)) {
    guards.push({
      code: "discount_over_cap",
      message: `a ${discount} % discount shows crossed-out prices ${new D(100).div(new D(100).minus(discount)).toDecimalPlaces(1).toFixed()}× the selling price (over ${DISCOUNT_CAP_PERCENT} % asks first)`,
    })
  }
  if (summary.priced > 0 && new D(summary.moved).times(100).div(summary.priced).gt(MOVED_SHARE_PERCENT)) {
    guards.push({
      code: "moves_many_prices",
      count: summary.moved,
      message: `${grouped(summary.moved)} of ${grouped(summary.priced)} selling prices would change (over ${MOVED_SHARE_PERCENT} % asks first)`,
    })
  }
  return guards
}
