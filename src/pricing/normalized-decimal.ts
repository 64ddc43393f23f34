// The one written form of a decimal amount: what Decimal#toFixed() writes (no exponent, no sign
// on zero, no leading or trailing zeros), the form Medusa's BigNumber stores ("1300.50" → "1300.5").
// Exact: no JS floats.
import Decimal from "decimal.js"

/** A decimal already in the form Decimal#toFixed() writes: no exponent, sign of zero, leading or trailing zeros. */
const NORMALIZED = /^(?:-?[1-9]\d*(?:\.\d*[1-9])?|-?0\.\d*[1-9]|0)$/

export function normalizedDecimal(value: string | number): string {
  // A page writes some 700 prices, each read and compared in this form: most are in it already.
  if (typeof value === "string" && NORMALIZED.test(value)) return value
  const d = new Decimal(String(value))
  if (!d.isFinite()) throw new Error(`not a finite amount: ${value}`)
  return d.toFixed()
}
