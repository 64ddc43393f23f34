// Pricing parameters sent with every product/stock request. The cursor remembers them, so a
// client always sends the same set; they are checked here so a typo fails before any request.
import Decimal from "decimal.js"

export type PriceCalculation = "min" | "avg" | "max"

export interface PricingOptions {
  price_calculation?: PriceCalculation
  markup_percent?: string | number | null
  discount_percent?: string | number | null
  old_price_markup_percent?: string | number | null
}

/** Query parameters for a pricing set, numbers as plain decimal strings (no exponent). */
export function pricingQuery(pricing: PricingOptions | undefined): Record<string, string> {
  const query: Record<string, string> = {}
  if (!pricing) return query
  if (pricing.price_calculation !== undefined) {
    if (!["min", "avg", "max"].includes(pricing.price_calculation)) {
      throw new TypeError("price_calculation must be one of min, avg, max")
    }
    query.price_calculation = pricing.price_calculation
  }
  const percent = (name: keyof PricingOptions, max: Decimal, maxInclusive: boolean) => {
    const value = pricing[name]
    if (value === undefined || value === null || value === "") return
    let d: Decimal
    try {
      d = new Decimal(String(value).trim())
    } catch {
      throw new TypeError(`${name} must be a number`)
    }
    const tooBig = maxInclusive ? d.greaterThan(max) : d.greaterThanOrEqualTo(max)
    if (!d.isFinite() || d.isNegative() || tooBig) {
      throw new TypeError(`${name} must be from 0 to ${maxInclusive ? max.toString() : "below " + max.toString()}`)
    }
    query[name] = d.toFixed()
  }
  percent("markup_percent", new Decimal(1000), true)
  percent("discount_percent", new Decimal(100), false)
  percent("old_price_markup_percent", new Decimal(1000), true)
  if (query.discount_percent !== undefined && query.old_price_markup_percent !== undefined) {
    throw new TypeError("send either discount_percent or old_price_markup_percent, not both")
  }
  return query
}
