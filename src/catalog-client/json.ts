// JSON in and out without losing digits. The API's ids reach 9223372036854775807, beyond what a
// JS number holds, so they must never pass through one.
//
// parseExactJson quotes, before JSON.parse, every number token that a double could not hold
// exactly (integers of 16+ digits) or whose text matters (fractions, exponents): those arrive as
// their exact source text (a string); small integers arrive as numbers. A scanner that jumps over
// string literals with indexOf finds the number tokens, far cheaper than a lossless parser
// written in JS over a whole page.
import { isLosslessNumber, LosslessNumber, stringify } from "lossless-json"

export { isLosslessNumber, LosslessNumber }

/** Integers up to 15 digits are exact in a double; longer ones may not be. */
const SAFE_INTEGER_DIGITS = 15
const QUOTE = 34
const BACKSLASH = 92
const MINUS = 45
const PLUS = 43
const DOT = 46
const DIGIT_0 = 48
const DIGIT_9 = 57
const E_LOWER = 101
const E_UPPER = 69

export function parseExactJson(text: string): unknown {
  return JSON.parse(quoteInexactNumbers(text))
}

/**
 * Like parseExactJson, but a number stays told apart from a string: a number token a double
 * cannot hold exactly arrives as a LosslessNumber (its exact text), never as a string, so a
 * schema can refuse `"id": "123"` where the API promises a JSON integer. The scanner marks
 * such tokens as strings that begin with NUL (plus "N"); a string of the source that itself
 * begins with NUL (only possible as the escape \u0000) gets a second NUL, so the walk after
 * JSON.parse tells the two apart exactly.
 */
export function parseCatalogJson(text: string): unknown {
  const marked = { found: false }
  const parsed = JSON.parse(quoteInexactNumbers(text, marked))
  return marked.found ? unmark(parsed) : parsed
}

const NUL = "\u0000"
const NUMBER_MARK = NUL + "N"

function unmarkString(value: string): unknown {
  if (value.charCodeAt(0) !== 0) return value
  if (value.startsWith(NUMBER_MARK)) return new LosslessNumber(value.slice(2))
  return value.slice(1) // a source string that began with NUL: drop the escape mark
}

function unmark(value: unknown): unknown {
  if (typeof value === "string") return unmarkString(value)
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unmark(value[i])
    return value
  }
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>
    for (const key of Object.keys(record)) {
      const v = record[key]
      if (typeof v === "string" ? v.charCodeAt(0) === 0 : v !== null && typeof v === "object") record[key] = unmark(v)
    }
  }
  return value
}

/**
 * The JSON text with inexact number tokens turned into strings of their exact digits. With
 * `marks`, those strings carry the number mark and source strings that begin with NUL get an
 * escape mark (see parseCatalogJson); `marks.found` tells whether anything was marked.
 */
export function quoteInexactNumbers(text: string, marks?: { found: boolean }): string {
  const numberPrefix = marks ? '"\\u0000N' : '"'
  let out = ""
  let copied = 0
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      // Jump to the closing quote: the first one not escaped by an odd run of backslashes.
      let j = text.indexOf('"', i + 1)
      while (j !== -1) {
        let k = j - 1
        while (text.charCodeAt(k) === BACKSLASH) k--
        if ((j - 1 - k) % 2 === 0) break
        j = text.indexOf('"', j + 1)
      }
      if (j === -1) return text // unterminated string: JSON.parse reports it
      if (marks && text.startsWith("\\u0000", i + 1)) {
        out += text.slice(copied, i + 1) + "\\u0000"
        copied = i + 1
        marks.found = true
      }
      i = j + 1
      continue
    }
    if (c === MINUS || (c >= DIGIT_0 && c <= DIGIT_9)) {
      const start = i
      let digits = 0
      let integer = true
      if (c === MINUS) i++
      while (i < n) {
        const d = text.charCodeAt(i)
        if (d >= DIGIT_0 && d <= DIGIT_9) digits++
        else if (d === DOT || d === E_LOWER || d === E_UPPER || d === PLUS || d === MINUS) integer = false
        else break
        i++
      }
      if (!integer || digits > SAFE_INTEGER_DIGITS) {
        out += text.slice(copied, start) + numberPrefix + text.slice(start, i) + '"'
        copied = i
        if (marks) marks.found = true
      }
      continue
    }
    i++
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/** Stringifies values that may hold LosslessNumber or bigint, keeping their digits. */
export function stringifyLossless(value: unknown): string {
  return stringify(value, (_key, v) => (typeof v === "bigint" ? new LosslessNumber(v.toString()) : v)) ?? "null"
}

/** The exact text of a JSON number (or a JS number/bigint, or a quoted number), else undefined. */
export function numberText(value: unknown): string | undefined {
  if (isLosslessNumber(value)) return value.value
  if (typeof value === "bigint") return value.toString()
  if (typeof value === "number" && Number.isFinite(value)) return String(value)
  if (typeof value === "string" && /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(value)) return value
  return undefined
}
