// Catalog ids are int64 in 1..9223372036854775807; the client carries them as canonical
// decimal strings ("42", never "042" or "4.2e1").
import { numberText } from "./json"

export const MAX_CATALOG_ID = 9223372036854775807n

const DIGITS = /^[0-9]+$/

/** Canonical id string for a JSON number, digit string or bigint, or null when not a valid id. */
export function toCatalogId(value: unknown): string | null {
  // A JS number beyond 2^53 has already lost digits: refuse it rather than guess.
  if (typeof value === "number" && !Number.isSafeInteger(value)) return null
  const text = typeof value === "string" ? value.trim() : numberText(value)
  if (text === undefined || !DIGITS.test(text)) return null
  const n = BigInt(text)
  if (n < 1n || n > MAX_CATALOG_ID) return null
  return n.toString()
}

/**
 * Canonical id string for an id as the API must send it: a JSON integer (a JS number, a
 * LosslessNumber or a bigint), never a string, in 1..9223372036854775807; else null.
 */
export function toJsonCatalogId(value: unknown): string | null {
  if (typeof value === "string") return null
  return toCatalogId(value)
}

/** Same as toCatalogId but throws a TypeError naming the argument; for values callers pass in. */
export function requireCatalogId(value: unknown, what = "id"): string {
  const id = toCatalogId(value)
  if (id === null) throw new TypeError(`${what} must be an integer from 1 to ${MAX_CATALOG_ID}`)
  return id
}
