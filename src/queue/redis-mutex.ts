// A short mutex across instances (SET NX PX, released only by its holder with a
// compare-and-delete). It serialises "is a run active? else create one" on enqueue. The run
// itself is guarded by the PostgreSQL run lock (run-liveness.ts), not by Redis.
import { randomUUID } from "node:crypto"
import type Redis from "ioredis"

const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

/** A short mutex for a critical section across instances (enqueue). */
export async function withRedisMutex<T>(redis: Redis, key: string, fn: () => Promise<T>, ttlMs = 15_000): Promise<T> {
  const value = randomUUID()
  const deadline = Date.now() + ttlMs * 2
  while ((await redis.set(key, value, "PX", ttlMs, "NX")) !== "OK") {
    if (Date.now() > deadline) throw new Error("catalog sync: timed out waiting for the enqueue lock")
    await new Promise((r) => setTimeout(r, 50))
  }
  try {
    return await fn()
  } finally {
    await redis.eval(RELEASE, 1, key, value).catch(() => undefined)
  }
}
