/** Redis's default number of databases (`databases 16`): indices 0 to 15. */
const REDIS_DATABASES = 16

/**
 * The Redis URL of jest worker `workerId` (1-based): the given URL's database index plus
 * `workerId - 1`, so parallel workers never share the queues of Medusa's event bus and workflow
 * engine. Throws past index 15 rather than wrap onto another worker's database.
 */
export function workerRedisUrl(given: string | undefined, workerId: number): string {
  const url = new URL(given || "redis://127.0.0.1:6379")
  const base = url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0
  if (!Number.isInteger(base) || base < 0) throw new Error(`REDIS_URL's database is not an index: ${url.pathname}`)
  const index = base + Math.max(1, workerId) - 1
  if (index >= REDIS_DATABASES) {
    throw new Error(
      `jest worker ${workerId} would need Redis database ${index} (REDIS_URL's ${base} plus the worker); lower REDIS_URL's index or the worker count`
    )
  }
  url.pathname = `/${index}`
  return url.toString()
}
