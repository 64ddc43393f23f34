// JSON with 64-bit ids written as exact integers: bigint values become bare digits.

const MARK = "\u0001#"
const MARK_PATTERN = /"\\u0001#(-?\d+)"/g

/** JSON.stringify, except that bigint values are written as exact JSON integers. */
export function stringifyJson(value: unknown): string {
  let sawBigint = false
  const text = JSON.stringify(value, (_key, v) => {
    if (typeof v === "bigint") {
      sawBigint = true
      return MARK + v.toString()
    }
    return v
  })
  return sawBigint ? text.replace(MARK_PATTERN, "$1") : text
}

/** A JSON string literal (fast path for hand-built documents). */
export function quote(text: string): string {
  return JSON.stringify(text)
}

/** Text that could collide with the bigint marker is refused at the edge (validation). */
export function hasControlCharacters(text: string): boolean {
  return /[\u0000-\u001f]/.test(text)
}
