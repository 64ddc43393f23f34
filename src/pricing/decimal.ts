// Exact decimal arithmetic for the pricing engine. Amounts stay decimal.js values (never JS
// floats) with enough significant digits that products of a 13-digit amount and a percent factor
// are exact; only the explicit rounding steps below lose digits, always on purpose.
import Decimal from "decimal.js"

export const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP })
export type Dec = InstanceType<typeof D>

export const ZERO = new D(0)
export const ONE = new D(1)
export const HUNDRED = new D(100)

/** A decimal string/number → Dec, or null when blank or not a finite number. */
export function parseDecimal(value: string | number | null | undefined): Dec | null {
  if (value === null || value === undefined) return null
  const text = String(value).trim()
  if (text === "") return null
  try {
    const d = new D(text)
    return d.isFinite() ? d : null
  } catch {
    return null
  }
}

/** Whole kopiykas, half up: the API's rounding of every computed amount (spec 2.2, sandbox). */
export function roundKop(value: Dec): Dec {
  return value.toDecimalPlaces(2, D.ROUND_HALF_UP)
}

/** 1 + percent/100, exact (a decimal divided by 100 is a shift). */
export function percentFactor(percent: Dec): Dec {
  return ONE.plus(percent.div(HUNDRED))
}

/** "1287.5" style canonical text without exponent, for storage and comparison. */
export function plain(value: Dec): string {
  return value.toFixed()
}

/** Money text with 2 decimals: "1287.50". */
export function money(value: Dec): string {
  return value.toFixed(2)
}
