// Pure: text PostgreSQL accepts. PostgreSQL refuses the NUL character in text and jsonb
// (22P05 / 22021) and refuses jsonb holding a lone UTF-16 surrogate; other C0 control
// characters are accepted but are never meant in a name or description and break the
// storefront's markup. Every string the client hands out of a schema goes through
// cleanText, and so does every message the plugin saves in a run record.

/**
 * C0 controls except tab, line feed and carriage return; DEL; and lone surrogates (a high
 * surrogate not followed by a low one, or a low one not preceded by a high one).
 */
const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * Any control character or any surrogate: a quick scan (the lookarounds above cost about 5× more
 * per character); only text it finds, rare in a catalog, gets the exact test.
 */
const SUSPECT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uD800-\uDFFF]/

/** Is there anything cleanText would remove? */
export function hasUnsafeText(value: string): boolean {
  if (!SUSPECT.test(value)) return false
  UNSAFE.lastIndex = 0
  const found = UNSAFE.test(value)
  UNSAFE.lastIndex = 0
  return found
}

/** The text without the characters listed above (everything else, including emoji, is kept). */
export function cleanText(value: string): string {
  UNSAFE.lastIndex = 0
  return hasUnsafeText(value) ? value.replace(UNSAFE, "") : value
}

/** cleanText, then cut to `max` characters (an ellipsis marks the cut; never splits a surrogate pair). */
export function cleanExcerpt(value: string, max: number): string {
  const clean = cleanText(value)
  if (clean.length <= max) return clean
  let end = max
  const code = clean.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end--
  return clean.slice(0, end) + "…"
}
