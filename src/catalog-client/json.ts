// JSON in and out without losing digits: every number is kept as its exact source text
// (LosslessNumber), so ids up to 9223372036854775807 never pass through a JS number.
import { isLosslessNumber, LosslessNumber, parse, stringify } from "lossless-json"

export { isLosslessNumber, LosslessNumber }

export function parseLosslessJson(text: string): unknown {
  return parse(text)
}

/** Stringifies values that may hold LosslessNumber or bigint, keeping their digits. */
export function stringifyLossless(value: unknown): string {
  return stringify(value, (_key, v) => (typeof v === "bigint" ? new LosslessNumber(v.toString()) : v)) ?? "null"
}

/** The exact text of a JSON number (or a JS number/bigint), else undefined. */
export function numberText(value: unknown): string | undefined {
  if (isLosslessNumber(value)) return value.value
  if (typeof value === "bigint") return value.toString()
  if (typeof value === "number" && Number.isFinite(value)) return String(value)
  return undefined
}
