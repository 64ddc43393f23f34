// Redis connections and key names of the plugin. Every key starts with the prefix so
// parallel apps (and tests) sharing one Redis never collide.
import Redis from "ioredis"

/** "mcs" unless CATALOG_SYNC_REDIS_PREFIX overrides it. */
export function redisPrefix(): string {
  return process.env.CATALOG_SYNC_REDIS_PREFIX?.trim() || "mcs"
}

export const QUEUE_NAME = "catalog-sync"

export function redisKeys(prefix = redisPrefix()) {
  return {
    /** Serialises "is a run active? else create one" across instances. */
    enqueueMutex: `${prefix}:lock:enqueue`,
    rateLimit: `${prefix}:ratelimit`,
  }
}

/** BullMQ needs maxRetriesPerRequest null on connections its workers block on. */
export function createRedis(url: string, name: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, connectionName: `medusa-catalog-sync:${name}:${process.pid}`, lazyConnect: false })
}

/** Closes a connection, waiting for pending replies; falls back to disconnect. */
export async function closeRedis(redis: Redis | null | undefined): Promise<void> {
  if (!redis || redis.status === "end") return
  try {
    await redis.quit()
  } catch {
    redis.disconnect()
  }
}
