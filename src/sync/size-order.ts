// Pure: the order sizes are shown in (the option's values and the variants). Numeric sizes
// first by value (42.5 between 42 and 43; "42,5" reads as 42.5), then letter sizes from
// XXS to XXXL (2XL = XXL, 3XL = XXXL), then any other text alphabetically.

const NUMERIC = /^\d+(?:[.,]\d+)?$/
/** XS, XXS, 3XS, S, M, L, XL, 2XL, XXXL ... (case-insensitive, spaces ignored). */
const LETTER = /^(?:(\d+)X|(X*))(S|M|L)$/

type SizeKey = { group: 0 | 1 | 2; value: number; text: string }

function letterRank(size: string): number | null {
  const m = LETTER.exec(size.replace(/\s+/g, "").toUpperCase())
  if (!m) return null
  const xs = m[1] !== undefined ? Number(m[1]) : m[2].length
  if (m[3] === "M") return xs === 0 ? 0 : null // "XM" is not a size
  return m[3] === "S" ? -1 - xs : 1 + xs
}

function sizeKey(size: string): SizeKey {
  const trimmed = size.trim()
  if (NUMERIC.test(trimmed)) return { group: 0, value: Number(trimmed.replace(",", ".")), text: trimmed }
  const rank = letterRank(trimmed)
  if (rank !== null) return { group: 1, value: rank, text: trimmed }
  return { group: 2, value: 0, text: trimmed }
}

/** Compares two sizes in shop order; equal-ranked sizes ("42" and "42.0") by their text, so the order is total. */
export function compareSizes(a: string, b: string): number {
  const ka = sizeKey(a)
  const kb = sizeKey(b)
  if (ka.group !== kb.group) return ka.group - kb.group
  if (ka.value !== kb.value) return ka.value - kb.value
  const byText = ka.text.localeCompare(kb.text, "uk", { numeric: true, sensitivity: "base" })
  if (byText !== 0) return byText
  return ka.text < kb.text ? -1 : ka.text > kb.text ? 1 : 0
}

/** A sorted copy. */
export function sortSizes<T>(items: readonly T[], sizeOf: (item: T) => string): T[] {
  return [...items].sort((a, b) => compareSizes(sizeOf(a), sizeOf(b)))
}
