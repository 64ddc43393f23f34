// The errors one failure wraps: PostgreSQL's driver, knex, MikroORM, the workflow engine and undici
// each nest the cause under a key of their own.

const NESTED_KEYS = ["cause", "originalError", "original", "error", "previous", "previousError"]
const LIST_KEYS = ["errors", "previousErrors"]

/** Every error this one wraps, itself first, breadth first (cycles cut; at most `max` in all and 5 of any list). */
export function errorChain(error: unknown, max = 20): unknown[] {
  const seen = new Set<unknown>()
  const queue: unknown[] = [error]
  while (queue.length && seen.size < max) {
    const e = queue.shift()
    if (e === null || e === undefined || seen.has(e)) continue
    seen.add(e)
    if (typeof e !== "object") continue
    const r = e as Record<string, unknown>
    for (const key of NESTED_KEYS) if (r[key] !== undefined) queue.push(r[key])
    for (const key of LIST_KEYS) if (Array.isArray(r[key])) queue.push(...(r[key] as unknown[]).slice(0, 5))
  }
  return [...seen]
}
