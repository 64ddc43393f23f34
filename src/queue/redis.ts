// Redis connections and key names of the plugin. Every key starts with the prefix so
// parallel apps (and tests) sharing one Redis never collide.
import Redis from "ioredis"

export const QUEUE_NAME = "catalog-sync"

/** @param prefix the runtime's Redis prefix (RuntimeConfig.redisPrefix). */
export function redisKeys(prefix: string) {
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

/**
 * The Redis connections of one runtime: the command connection (locks, mutexes, the shared rate
 * limit) opened at once, the others (the queue's, the worker's) on demand; all closed together.
 */
export class RedisConnections {
  readonly #url: string
  readonly #onError: (name: string, e: Error) => void
  #open: Redis[] = []
  #commands: Redis | null = null
  #closed = false

  constructor(url: string, onError: (name: string, e: Error) => void) {
    this.#url = url
    this.#onError = onError
  }

  /** A new connection named `name` (BullMQ settings), closed by closeAll(). */
  connect(name: string): Redis {
    if (this.#closed) throw new Error("catalog sync: the Redis connections are closed (the app is stopping)")
    const redis = createRedis(this.#url, name)
    redis.on("error", (e) => this.#onError(name, e))
    this.#open.push(redis)
    return redis
  }

  /** The shared command connection; null once closed. */
  commands(): Redis | null {
    if (this.#closed) return null
    this.#commands ??= this.connect("commands")
    return this.#commands
  }

  get closed(): boolean {
    return this.#closed
  }

  async closeAll(): Promise<void> {
    this.#closed = true
    const open = this.#open
    this.#open = []
    this.#commands = null
    await Promise.all(open.map(closeRedis))
  }
}
