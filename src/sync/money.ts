// Catalog money → Medusa amount. Medusa stores major units and accepts a decimal
// string (BigNumberValue), so the catalog's exact text goes through decimal.js and
// never through a JS float.
import Decimal from "decimal.js"

/** Text toAmount gives back as it is: cents already, no sign, no leading zero. */
const IN_CENTS = /^(?:0|[1-9]\d*)\.\d\d$/

/** "1287.5" → "1287.50", "-0" → "0.00"; null/blank/invalid/negative → null. */
export function toAmount(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null
  const text = value.trim()
  if (text === "") return null
  // Most of a catalog's prices (every offer of every size is read) are written this way already.
  if (IN_CENTS.test(text)) return text
  let d: Decimal
  try {
    d = new Decimal(text)
  } catch {
    return null
  }
  // decimal.js calls -0 negative; a signed zero is still zero.
  if (d.isZero()) return "0.00"
  if (!d.isFinite() || d.isNegative()) return null
  return d.toFixed(2, Decimal.ROUND_HALF_UP)
}

/** The price a variant sells at: the retail `price` when the run sends a markup, else the cost. */
export function sellingAmount(entry: { price?: string | null; cost_price?: string | null }): string | null {
  return toAmount(entry.price ?? null) ?? (entry.price === undefined ? toAmount(entry.cost_price ?? null) : null)
}
