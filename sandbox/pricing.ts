// Price rules of spec section 2.2, in exact decimal fixed-point arithmetic.
// Amounts are integer kopiykas; percentages are exact ratios of integers, so no value is ever
// approximated. Rounding: every computed value is rounded to 2 decimals (whole kopiykas),
// ROUND_HALF_UP, at each step: the cost (avg), then the price from the rounded cost, then the
// old price from the rounded price (discount) or from the rounded cost (old-price markup).
// This is the hot path of every page, hence integers rather than decimal.js objects; the tests
// check every card against an independent decimal.js computation.

import Decimal from "decimal.js"
import type { Product } from "./model"

export type PriceCalculation = "min" | "avg" | "max"

/** An exact ratio num/den of positive integers, as numbers and as bigints. */
interface Ratio {
  num: number
  den: number
  bigNum: bigint
  bigDen: bigint
}

export interface Pricing {
  calculation: PriceCalculation
  /** Normalised decimal strings ("30.5"), or null when not sent. */
  markupPercent: string | null
  discountPercent: string | null
  oldPriceMarkupPercent: string | null
  /** price = cost × markup */
  markup: Ratio | null
  /** old_price = price × discount (= 1 / (1 − d/100)) */
  discount: Ratio | null
  /** old_price = cost × oldPriceMarkup */
  oldPriceMarkup: Ratio | null
  /** Canonical text of the applied parameters; cursors carry a hash of it. */
  key: string
}

export function makePricing(
  calculation: PriceCalculation,
  markupPercent: string | null,
  discountPercent: string | null,
  oldPriceMarkupPercent: string | null
): Pricing {
  const markup = normalise(markupPercent)
  const discount = normalise(discountPercent)
  const oldMarkup = normalise(oldPriceMarkupPercent)
  return {
    calculation,
    markupPercent: markup,
    discountPercent: discount,
    oldPriceMarkupPercent: oldMarkup,
    markup: markup === null ? null : percentFactor(markup, 1n),
    discount: discount === null ? null : inverse(percentFactor(discount, -1n)),
    oldPriceMarkup: oldMarkup === null ? null : percentFactor(oldMarkup, 1n),
    key: [calculation, markup ?? "", discount ?? "", oldMarkup ?? ""].join("|"),
  }
}

function normalise(value: string | null): string | null {
  return value === null ? null : new Decimal(value).toFixed() // "030.50" → "30.5", never exponent notation
}

/** 1 ± percent/100 as an exact ratio; percent is a plain non-negative decimal string. */
function percentFactor(percent: string, sign: 1n | -1n): Ratio {
  const [whole, fraction = ""] = percent.split(".")
  const scale = 10n ** BigInt(fraction.length)
  const scaled = BigInt(whole + fraction) // percent × scale
  const den = 100n * scale
  return ratio(den + sign * scaled, den)
}

function inverse(r: Ratio): Ratio {
  return ratio(r.bigDen, r.bigNum)
}

function ratio(num: bigint, den: bigint): Ratio {
  return { num: Number(num), den: Number(den), bigNum: num, bigDen: den }
}

/** Kopiykas: a number while safe, a bigint beyond 2^53 (huge markups and discounts near 100 %). */
type Kop = number | bigint

/** round_half_up(amount × r) for a non-negative integer amount. */
function scale(amount: Kop, r: Ratio): Kop {
  if (typeof amount === "number") {
    const product = amount * r.num
    if (Number.isSafeInteger(product) && Number.isSafeInteger(r.den)) return divideHalfUp(product, r.den)
  }
  const big = BigInt(amount) * r.bigNum
  const quotient = big / r.bigDen
  const remainder = big - quotient * r.bigDen
  const rounded = 2n * remainder >= r.bigDen ? quotient + 1n : quotient
  return rounded <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(rounded) : rounded
}

/** round_half_up(a / b) for non-negative safe integers (exact: a < 2^53 keeps floor(a / b) exact). */
function divideHalfUp(a: number, b: number): number {
  const quotient = Math.floor(a / b)
  const remainder = a - quotient * b
  return 2 * remainder >= b ? quotient + 1 : quotient
}

/** `meta.pricing`: the parameters applied, numbers as normalised decimal strings, absent ones null. */
export function pricingMeta(pricing: Pricing): Record<string, string | null> {
  return {
    price_calculation: pricing.calculation,
    markup_percent: pricing.markupPercent,
    discount_percent: pricing.discountPercent,
    old_price_markup_percent: pricing.oldPriceMarkupPercent,
  }
}

/** min / avg / max of kopiyka amounts, in whole kopiykas (avg rounded half up); null for no amounts. */
export function aggregateCost(kopiykas: number[], calculation: PriceCalculation): number | null {
  if (kopiykas.length === 0) return null
  if (calculation === "min") return Math.min(...kopiykas)
  if (calculation === "max") return Math.max(...kopiykas)
  let sum = 0
  for (const k of kopiykas) sum += k
  return divideHalfUp(sum, kopiykas.length)
}

/** Suppliers' costs for the whole product: those with stock, else all with a price. */
export function productCostInputs(product: Product): number[] {
  const inStock: number[] = []
  const priced: number[] = []
  for (const offer of product.suppliers) {
    if (offer.baseCost === null) continue
    priced.push(offer.baseCost)
    if (offer.sizeStock.some((stock) => stock > 0)) inStock.push(offer.baseCost)
  }
  return inStock.length > 0 ? inStock : priced
}

/** Suppliers' costs for one size: those with that size in stock, else all listing it with a price. */
export function sizeCostInputs(product: Product, slot: number): number[] {
  const inStock: number[] = []
  const listed: number[] = []
  for (const offer of product.suppliers) {
    const cost = offer.sizeCosts[slot]
    if (offer.sizeStock[slot] < 0 || cost === null) continue
    listed.push(cost)
    if (offer.sizeStock[slot] > 0) inStock.push(cost)
  }
  return inStock.length > 0 ? inStock : listed
}

export interface PriceSet {
  cost: string | null
  price: string | null
  oldPrice: string | null
}

/** cost_price, price and old_price as decimal strings from a cost in kopiykas; null where the cost is null. */
export function applyPricing(costKop: number | null, pricing: Pricing): PriceSet {
  if (costKop === null) return { cost: null, price: null, oldPrice: null }
  let price: Kop | null = null
  let oldPrice: Kop | null = null
  if (pricing.markup) {
    price = scale(costKop, pricing.markup)
    if (pricing.discount) oldPrice = scale(price, pricing.discount)
    else if (pricing.oldPriceMarkup) oldPrice = scale(costKop, pricing.oldPriceMarkup)
  }
  return { cost: formatKop(costKop), price: price === null ? null : formatKop(price), oldPrice: oldPrice === null ? null : formatKop(oldPrice) }
}

/** 123456 → "1234.56" */
function formatKop(kop: Kop): string {
  if (typeof kop === "bigint") {
    const digits = kop.toString().padStart(3, "0")
    return `${digits.slice(0, -2)}.${digits.slice(-2)}`
  }
  const hryvnias = Math.floor(kop / 100)
  const rest = kop - hryvnias * 100
  return `${hryvnias}.${rest < 10 ? "0" : ""}${rest}`
}
