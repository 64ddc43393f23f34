import Decimal from "decimal.js"

// Same arithmetic as the catalog API (docs/contracts.md "Price rules"): exact
// decimals, every step rounded to 2 places HALF_UP, so the preview shows the
// prices the shop will really get.
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP })
const HUNDRED = new D(100)
const ONE = new D(1)

export const SAMPLE_COST = "1000.00"

export type PreviewInput = {
  cost?: string
  markup_percent: string | null
  discount_percent: string | null
  old_price_markup_percent: string | null
}

export type PricePreview = { cost: string; price: string | null; oldPrice: string | null }

function round2(value: Decimal): Decimal {
  return value.toDecimalPlaces(2, D.ROUND_HALF_UP)
}

function parse(value: string | null | undefined): Decimal | null {
  if (value === null || value === undefined || value.trim() === "") return null
  try {
    const parsed = new D(value.trim())
    return parsed.isFinite() ? parsed : null
  } catch {
    return null
  }
}

/** Prices for one sample cost; null parts are what the API would leave out. */
export function computePricePreview(input: PreviewInput): PricePreview {
  const cost = round2(parse(input.cost ?? SAMPLE_COST) ?? new D(SAMPLE_COST))
  const markup = parse(input.markup_percent)
  const discount = parse(input.discount_percent)
  const oldMarkup = parse(input.old_price_markup_percent)
  if (markup === null) return { cost: cost.toFixed(2), price: null, oldPrice: null }
  const price = round2(cost.times(ONE.plus(markup.div(HUNDRED))))
  let oldPrice: Decimal | null = null
  if (discount !== null) {
    const divisor = ONE.minus(discount.div(HUNDRED))
    // A discount of 100 % or more is invalid; the form says so beside the field.
    if (divisor.gt(0)) oldPrice = round2(price.div(divisor))
  } else if (oldMarkup !== null) {
    oldPrice = round2(cost.times(ONE.plus(oldMarkup.div(HUNDRED))))
  }
  return { cost: cost.toFixed(2), price: price.toFixed(2), oldPrice: oldPrice?.toFixed(2) ?? null }
}
