// The one way the safety brake writes a share or a drop in percent, wherever it is read: the
// pause's reason ("would remove 7 of 30 catalog products (23.3 %, more than 20 %)"), the brake
// panel's lines and its table of drops. Pure; decimal.js only, so the admin bundle can use it.
import { D, type Dec, parseDecimal } from "./decimal"

/**
 * A percent beside its limit as the admin reads it: one decimal, rounded down ("25", "23.3"), more
 * only where one decimal would read as the limit itself ("20.04", not "20"). A value at or under
 * its limit gets one decimal ("14.2" for 1 of 7). Null for a value that is not a number.
 */
export function brakePercentText(value: Dec | string | number, limit: Dec | string | number): string | null {
  const share = typeof value === "object" ? value : parseDecimal(value)
  const bound = (typeof limit === "object" ? limit : parseDecimal(limit)) ?? new D(0)
  if (share === null) return null
  // At or under its limit (a share shown beside a pause for the other reason): one decimal.
  if (!share.gt(bound)) return share.toDecimalPlaces(1, D.ROUND_DOWN).toString()
  for (const places of [1, 2, 4]) {
    const rounded = share.toDecimalPlaces(places, D.ROUND_DOWN)
    if (rounded.gt(bound)) return rounded.toString()
  }
  // Over the limit by less than 0.0001: rounded up, still over it, never 60 digits of 1/7.
  return share.toDecimalPlaces(6, D.ROUND_UP).toString()
}
