// Price rules of spec section 2.2, in exact decimals.
// Rounding: every computed value is rounded to 2 decimals, ROUND_HALF_UP, at each step
// (cost, then price from the rounded cost, then old_price from the rounded price or cost).

import Decimal from "decimal.js"
import type { Product } from "./model"

export type PriceCalculation = "min" | "avg" | "max"

export interface Pricing {
  calculation: PriceCalculation
  markupPercent: Decimal | null
  discountPercent: Decimal | null
  oldPriceMarkupPercent: Decimal | null
  /** Precomputed factors (1 + markup/100 and so on), so a card costs few operations. */
  markupFactor: Decimal | null
  discountDivisor: Decimal | null
  oldPriceMarkupFactor: Decimal | null
  /** Canonical text of the applied parameters; cursors carry a hash of it. */
  key: string
}

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP })
const HUNDRED = new D(100)
const ONE = new D(1)

export function makePricing(
  calculation: PriceCalculation,
  markupPercent: string | null,
  discountPercent: string | null,
  oldPriceMarkupPercent: string | null,
): Pricing {
  const markup = markupPercent === null ? null : new D(markupPercent)
  const discount = discountPercent === null ? null : new D(discountPercent)
  const oldMarkup = oldPriceMarkupPercent === null ? null : new D(oldPriceMarkupPercent)
  return {
    calculation,
    markupPercent: markup,
    discountPercent: discount,
    oldPriceMarkupPercent: oldMarkup,
    markupFactor: markup ? ONE.plus(markup.div(HUNDRED)) : null,
    discountDivisor: discount ? ONE.minus(discount.div(HUNDRED)) : null,
    oldPriceMarkupFactor: oldMarkup ? ONE.plus(oldMarkup.div(HUNDRED)) : null,
    key: [calculation, markup?.toString() ?? "", discount?.toString() ?? "", oldMarkup?.toString() ?? ""].join("|"),
  }
}

export const DEFAULT_PRICING = makePricing("max", null, null, null)

/** `meta.pricing`: the parameters applied, numbers as normalised decimal strings, absent ones null. */
export function pricingMeta(pricing: Pricing): Record<string, string | null> {
  return {
    price_calculation: pricing.calculation,
    markup_percent: pricing.markupPercent?.toString() ?? null,
    discount_percent: pricing.discountPercent?.toString() ?? null,
    old_price_markup_percent: pricing.oldPriceMarkupPercent?.toString() ?? null,
  }
}

/** min / avg / max of kopiyka amounts, as hryvnias rounded to 2 decimals; null for no amounts. */
export function aggregateCost(kopiykas: number[], calculation: PriceCalculation): Decimal | null {
  if (kopiykas.length === 0) return null
  if (calculation === "min") return new D(Math.min(...kopiykas)).div(HUNDRED)
  if (calculation === "max") return new D(Math.max(...kopiykas)).div(HUNDRED)
  let sum = new D(0)
  for (const k of kopiykas) sum = sum.plus(k)
  return sum.div(kopiykas.length).div(HUNDRED).toDecimalPlaces(2, D.ROUND_HALF_UP)
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

/** price and old_price from a (rounded) cost; null where the cost is null. */
export function applyPricing(cost: Decimal | null, pricing: Pricing): PriceSet {
  if (cost === null) return { cost: null, price: null, oldPrice: null }
  let price: Decimal | null = null
  let oldPrice: Decimal | null = null
  if (pricing.markupFactor) {
    price = cost.times(pricing.markupFactor).toDecimalPlaces(2, D.ROUND_HALF_UP)
    if (pricing.discountDivisor) {
      oldPrice = price.div(pricing.discountDivisor).toDecimalPlaces(2, D.ROUND_HALF_UP)
    } else if (pricing.oldPriceMarkupFactor) {
      oldPrice = cost.times(pricing.oldPriceMarkupFactor).toDecimalPlaces(2, D.ROUND_HALF_UP)
    }
  }
  return { cost: cost.toFixed(2), price: price?.toFixed(2) ?? null, oldPrice: oldPrice?.toFixed(2) ?? null }
}

export { D as SandboxDecimal }
