import type Redis from "ioredis"

/** Every key matching the pattern, by SCAN (KEYS would hold the shared server for the whole keyspace). */
export async function keysMatching(redis: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = []
  let cursor = "0"
  do {
    const [next, found] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000)
    keys.push(...found)
    cursor = next
  } while (cursor !== "0")
  return keys
}

/** Deletes every key matching the pattern (UNLINK, a few hundred at a time). */
export async function deleteKeysMatching(redis: Redis, pattern: string): Promise<void> {
  const keys = await keysMatching(redis, pattern)
  for (let i = 0; i < keys.length; i += 500) await redis.unlink(...keys.slice(i, i + 500))
}
