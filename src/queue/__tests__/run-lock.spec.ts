// The cross-instance run lock and enqueue mutex against the real Redis on 127.0.0.1.
import { randomUUID } from "node:crypto"
import Redis from "ioredis"
import { RunLock, withRedisMutex } from "../run-lock"

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379"

describe("RunLock", () => {
  let redis: Redis
  let other: Redis
  const key = `mcs-unit-${randomUUID()}:lock:run`

  beforeAll(() => {
    redis = new Redis(REDIS_URL)
    other = new Redis(REDIS_URL)
  })
  afterAll(async () => {
    await redis.del(key)
    await Promise.all([redis.quit(), other.quit()])
  })

  it("lets one holder in, names it, and frees only on the holder's release", async () => {
    const a = new RunLock(redis, key, 5000)
    const b = new RunLock(other, key, 5000)
    expect(await a.tryAcquire("run_a")).toBe(true)
    expect(await b.tryAcquire("run_b")).toBe(false)
    expect(await RunLock.holder(other, key)).toBe("run_a")
    await b.release() // not the holder: nothing happens
    expect(await RunLock.holder(other, key)).toBe("run_a")
    await a.release()
    expect(await RunLock.holder(other, key)).toBeNull()
    expect(await b.tryAcquire("run_b")).toBe(true)
    await b.release()
  })

  it("renews itself while held, so a long run keeps it past the TTL", async () => {
    const a = new RunLock(redis, key, 1500)
    expect(await a.tryAcquire("run_long")).toBe(true)
    await new Promise((r) => setTimeout(r, 2500))
    expect(await RunLock.holder(other, key)).toBe("run_long")
    await a.release()
  })

  it("a dead holder's lock expires; a waiter gets it then, or gives up on abort", async () => {
    await other.set(key, "run_dead|x", "PX", 800)
    const waiter = new RunLock(redis, key, 5000)
    const got = await waiter.acquire("run_next", new AbortController().signal, 100)
    expect(got).toBe(true)
    const blocked = new RunLock(other, key, 5000)
    const abort = new AbortController()
    setTimeout(() => abort.abort(), 300)
    expect(await blocked.acquire("run_third", abort.signal, 100)).toBe(false)
    await waiter.release()
  })
})

describe("withRedisMutex", () => {
  it("serialises critical sections across connections", async () => {
    const key = `mcs-unit-${randomUUID()}:lock:enqueue`
    const conns = [new Redis(REDIS_URL), new Redis(REDIS_URL), new Redis(REDIS_URL)]
    let inside = 0
    let maxInside = 0
    try {
      await Promise.all(
        conns.flatMap((c) =>
          [1, 2, 3].map(() =>
            withRedisMutex(c, key, async () => {
              inside++
              maxInside = Math.max(maxInside, inside)
              await new Promise((r) => setTimeout(r, 10))
              inside--
            })
          )
        )
      )
      expect(maxInside).toBe(1)
    } finally {
      await Promise.all(conns.map((c) => c.quit()))
    }
  })
})
