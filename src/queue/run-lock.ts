// Redis locks. withRedisMutex serialises short critical sections across instances (enqueueing,
// resuming). RunLock (SET NX PX, renewed by a timer) is no longer the run lock: a timer that a
// busy event loop delays let a live run lose it; runs hold a PostgreSQL advisory lock instead
// (run-liveness.ts). RunLock is kept only for its callers outside the queue, if any appear.
import { randomUUID } from "node:crypto"
import type Redis from "ioredis"

const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`
const RENEW = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`

export class RunLock {
  readonly #redis: Redis
  readonly #key: string
  readonly #ttlMs: number
  #value: string | null = null
  #timer: NodeJS.Timeout | null = null

  constructor(redis: Redis, key: string, ttlMs = 15_000) {
    this.#redis = redis
    this.#key = key
    this.#ttlMs = ttlMs
  }

  /** Tries once. On success the lock renews itself every ttl/3 until release(). */
  async tryAcquire(runId: string): Promise<boolean> {
    const value = `${runId}|${randomUUID()}`
    const ok = await this.#redis.set(this.#key, value, "PX", this.#ttlMs, "NX")
    if (ok !== "OK") return false
    this.#value = value
    this.#timer = setInterval(() => {
      this.#redis.eval(RENEW, 1, this.#key, value, String(this.#ttlMs)).catch(() => undefined)
    }, Math.max(1000, Math.floor(this.#ttlMs / 3)))
    this.#timer.unref()
    return true
  }

  /** Waits until acquired, polling; returns false when the signal aborts first. */
  async acquire(runId: string, signal: AbortSignal, pollMs = 1000): Promise<boolean> {
    while (!signal.aborted) {
      if (await this.tryAcquire(runId)) return true
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, pollMs)
        function done() {
          clearTimeout(t)
          signal.removeEventListener("abort", done)
          resolve()
        }
        signal.addEventListener("abort", done, { once: true })
      })
    }
    return false
  }

  async release(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = null
    const value = this.#value
    this.#value = null
    if (value) await this.#redis.eval(RELEASE, 1, this.#key, value).catch(() => undefined)
  }

  /** The run id holding the lock anywhere, or null. */
  static async holder(redis: Redis, key: string): Promise<string | null> {
    const value = await redis.get(key)
    return value ? value.split("|")[0] : null
  }
}

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
