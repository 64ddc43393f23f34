// Medusa stores a money amount twice: `amount` (numeric) and `raw_amount` ({ value, precision: 20 }),
// the value normalized the way its BigNumber does ("1300.50" → "1300.5"). Exact: no JS floats.
import { normalizedDecimal } from "../pricing/normalized-decimal"

export { normalizedDecimal }

export const RAW_PRECISION = 20

export function rawValue(value: string | number): { value: string; precision: number } {
  return { value: normalizedDecimal(value), precision: RAW_PRECISION }
}
