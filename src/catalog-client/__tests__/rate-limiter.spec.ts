// The limiters: rules on a fake clock, then real HTTP against the sandbox's strict limits, then
// the Redis limiter shared by two clients as a server and a worker process would share it.
import { randomUUID } from "node:crypto"
import Redis from "ioredis"
import type { Sandbox } from "../../../sandbox/server"
import { AbortedError, MemoryRateLimiter, RedisRateLimiter, type RateLimiter, type Release } from "../index"
import { clientFor, control, sandbox, SANDBOX_CEILING } from "./sandbox-helpers"

// Generous limits for a shared 2-core machine; nothing here asserts on speed.
jest.setTimeout(30_000)

interface Gauge {
  now: number
  max: number
}

/** Wraps a limiter to see how many slots are held at once. */
function gauged(inner: RateLimiter, gauge: Gauge): RateLimiter {
  return {
    get limits() {
      return inner.limits
    },
    updateLimits: (l) => inner.updateLimits(l),
    observe: (h) => inner.observe(h),
    pauseFor: (ms) => inner.pauseFor(ms),
    async acquire(signal) {
      const release = await inner.acquire(signal)
      gauge.now++
      gauge.max = Math.max(gauge.max, gauge.now)
      let done = false
      return (options) => {
        if (!done) {
          done = true
          gauge.now--
        }
        release(options)
      }
    },
  }
}

function settled<T>(promise: Promise<T>): { done: () => boolean } {
  let done = false
  promise.then(
    () => (done = true),
    () => (done = true)
  )
  return { done: () => done }
}

describe("MemoryRateLimiter rules (fake clock)", () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }))
  afterEach(() => jest.useRealTimers())

  it("keeps a strict 60-s window counted from each request's end", async () => {
    const limiter = new MemoryRateLimiter({ requestsPerMinute: 5, maxConcurrent: 5 })
    const releases: Release[] = []
    for (let i = 0; i < 5; i++) releases.push(await limiter.acquire())
    await jest.advanceTimersByTimeAsync(2_000)
    releases.forEach((r) => r())
    const sixth = settled(limiter.acquire())
    await jest.advanceTimersByTimeAsync(60_000)
    expect(sixth.done()).toBe(false)
    await jest.advanceTimersByTimeAsync(300)
    expect(sixth.done()).toBe(true)
  })

  it("paces starts evenly after a burst of maxConcurrent and never exceeds maxConcurrent", async () => {
    const limiter = new MemoryRateLimiter({ requestsPerMinute: 60, maxConcurrent: 3 })
    const first = await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()])
    const fourth = settled(limiter.acquire())
    await jest.advanceTimersByTimeAsync(5_000)
    expect(fourth.done()).toBe(false) // three in flight
    first[0]()
    await jest.advanceTimersByTimeAsync(0)
    expect(fourth.done()).toBe(true)
    expect(limiter.inFlight).toBe(3)

    // Under sustained load: a burst of 3, then one start a second.
    const sustained = new MemoryRateLimiter({ requestsPerMinute: 60, maxConcurrent: 3 })
    for (let i = 0; i < 3; i++) (await sustained.acquire())()
    const next = settled(sustained.acquire().then((r) => r()))
    const after = settled(sustained.acquire().then((r) => r()))
    await jest.advanceTimersByTimeAsync(990)
    expect(next.done()).toBe(false)
    await jest.advanceTimersByTimeAsync(20)
    expect(next.done()).toBe(true)
    expect(after.done()).toBe(false)
    await jest.advanceTimersByTimeAsync(1_000)
    expect(after.done()).toBe(true)
  })

  it("books foreign use seen in X-RateLimit-Remaining, and a 429 pause holds everyone", async () => {
    const limiter = new MemoryRateLimiter({ requestsPerMinute: 10, maxConcurrent: 10 })
    const release = await limiter.acquire()
    await limiter.observe({ "x-ratelimit-remaining": "2" }) // we used 1 of 10; the server says 2 left
    release()
    await limiter.acquire()
    await limiter.acquire()
    const blocked = settled(limiter.acquire())
    await jest.advanceTimersByTimeAsync(59_000)
    expect(blocked.done()).toBe(false)
    await jest.advanceTimersByTimeAsync(2_000)
    expect(blocked.done()).toBe(true)

    const paused = new MemoryRateLimiter()
    await paused.pauseFor(5_000)
    const held = settled(paused.acquire())
    await jest.advanceTimersByTimeAsync(4_900)
    expect(held.done()).toBe(false)
    await jest.advanceTimersByTimeAsync(200)
    expect(held.done()).toBe(true)
  })

  it("an aborted waiter leaves the queue", async () => {
    const limiter = new MemoryRateLimiter({ requestsPerMinute: 60, maxConcurrent: 1 })
    const held = await limiter.acquire()
    const controller = new AbortController()
    const waiting = limiter.acquire(controller.signal)
    controller.abort()
    await expect(waiting).rejects.toBeInstanceOf(AbortedError)
    held()
    const next = settled(limiter.acquire())
    await jest.advanceTimersByTimeAsync(1_000)
    expect(next.done()).toBe(true)
    expect(limiter.inFlight).toBe(1)
  })
})

describe("limiter against the sandbox's limits", () => {
  let sb: Sandbox
  afterEach(async () => {
    await sb.close()
  })

  it("default limits (60/min, 3 at once): no 429, never more than 3 in flight", async () => {
    sb = await sandbox({ products: 50, rpm: 60, concurrency: 3, latencyMs: 40 })
    const gauge = { now: 0, max: 0 }
    const client = clientFor(sb, { limiter: gauged(new MemoryRateLimiter(), gauge) })
    const ids = (await client.getChangesPage({ limit: 6 })).items.map((i) => i.id)
    const cards = await Promise.all(ids.map((id) => client.getProduct(id)))
    expect(cards.map((c) => c.id)).toEqual(ids)
    const stats = await control(sb, "/stats")
    expect(stats.rate_limited.total).toBe(0)
    expect(stats.requests).toBe(8) // me + page + 6 products
    expect(gauge.max).toBeLessThanOrEqual(3)
    await client.close()
  }, 20_000)

  it("raised limits adopted from /v1/me: a burst of 60 calls, no 429, at most 3 in flight", async () => {
    sb = await sandbox({ products: 100, rpm: 6000, concurrency: 3, latencyMs: 60 })
    const gauge = { now: 0, max: 0 }
    const client = clientFor(sb, { limiter: gauged(new MemoryRateLimiter({ ceiling: SANDBOX_CEILING }), gauge) })
    const ids = (await client.getChangesPage({ limit: 60 })).items.map((i) => i.id)
    await Promise.all(ids.map((id) => client.getProduct(id)))
    const stats = await control(sb, "/stats")
    expect(stats.rate_limited.total).toBe(0)
    expect(stats.by_status["200"]).toBe(62)
    expect(gauge.max).toBe(3)
    await client.close()
  })
})

describe("low X-RateLimit-Remaining (someone else spends the key)", () => {
  let redis: Redis
  beforeAll(() => {
    redis = new Redis({ host: "127.0.0.1", port: 6379, maxRetriesPerRequest: 2 })
  })
  afterAll(async () => {
    await redis.quit()
  })

  it.each(["memory", "redis"])("books the foreign use and holds the next call instead of drawing a 429 (%s)", async (kind) => {
    const sb = await sandbox({ products: 20, rpm: 20, concurrency: 3 })
    const prefix = `test:catalog-client:${randomUUID()}`
    try {
      // Another tool on the same key spends 18 of the minute's 20 requests.
      for (let i = 0; i < 18; i++) await (await fetch(`${sb.baseUrl}/v1/me`, { headers: { "x-api-key": sb.apiKey } })).text()
      const limiter = kind === "redis" ? new RedisRateLimiter({ redis, apiKey: sb.apiKey, prefix }) : new MemoryRateLimiter()
      const client = clientFor(sb, { limiter }) // adopts 20/min from /v1/me, which answers "1 left"
      await client.getProduct(1) // the last one
      expect(client.quota.rateLimitRemaining).toBe(0)
      await expect(client.getProduct(1, { signal: AbortSignal.timeout(1_500) })).rejects.toBeInstanceOf(AbortedError)
      const stats = await control(sb, "/stats")
      expect(stats.rate_limited.total).toBe(0)
      expect(stats.requests).toBe(20)
      await client.close()
    } finally {
      const keys = await redis.keys(`${prefix}*`)
      if (keys.length) await redis.del(...keys)
      await sb.close()
    }
  })
})

describe("RedisRateLimiter (shared by processes)", () => {
  let redis: Redis
  let prefix: string
  beforeAll(() => {
    redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: false, maxRetriesPerRequest: 2 })
  })
  beforeEach(() => {
    prefix = `test:catalog-client:${randomUUID()}`
  })
  afterEach(async () => {
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length) await redis.del(...keys)
  })
  afterAll(async () => {
    await redis.quit()
  })

  it("two clients sharing one key stay under its limits together", async () => {
    const sb = await sandbox({ products: 60, rpm: 6000, concurrency: 3, latencyMs: 150 })
    try {
      const gauge = { now: 0, max: 0 }
      const make = () => clientFor(sb, { limiter: gauged(new RedisRateLimiter({ redis, apiKey: sb.apiKey, prefix, ceiling: SANDBOX_CEILING }), gauge) })
      const server = make()
      const worker = make()
      const ids = (await server.getChangesPage({ limit: 40 })).items.map((i) => i.id)
      await Promise.all([...ids.slice(0, 20).map((id) => server.getProduct(id)), ...ids.slice(20).map((id) => worker.getProduct(id))])
      const stats = await control(sb, "/stats")
      expect(stats.rate_limited.total).toBe(0)
      expect(stats.by_status["200"]).toBe(43) // two /me, one page, 40 products
      expect(gauge.max).toBeLessThanOrEqual(3)
      expect(gauge.max).toBeGreaterThanOrEqual(2)
      // The Redis keys are named by a hash of the key, never the key itself.
      const keys = await redis.keys(`${prefix}*`)
      expect(keys.length).toBeGreaterThan(0)
      expect(keys.join(" ")).not.toContain(sb.apiKey)
      await Promise.all([server.close(), worker.close()])
    } finally {
      await sb.close()
    }
  })

  it("a crashed holder's lease expires; adopted limits are shared; foreign use is booked", async () => {
    const crashed = new RedisRateLimiter({ redis, keyId: "k1", prefix, leaseTtlMs: 300, maxConcurrent: 1 })
    const other = new RedisRateLimiter({ redis, keyId: "k1", prefix, leaseTtlMs: 300, maxConcurrent: 1 })
    await crashed.acquire() // never released
    const release = await other.acquire() // resolves once the lease has expired
    release()

    const a = new RedisRateLimiter({ redis, keyId: "k2", prefix, ceiling: { requestsPerMinute: 6000 } })
    const b = new RedisRateLimiter({ redis, keyId: "k2", prefix, ceiling: { requestsPerMinute: 6000 } })
    await a.updateLimits({ requestsPerMinute: 6000, maxConcurrent: 1 })
    const held = await b.acquire()
    await expect(b.acquire(AbortSignal.timeout(150))).rejects.toBeInstanceOf(AbortedError)
    held()
    const next = await b.acquire()
    next()

    const c = new RedisRateLimiter({ redis, keyId: "k3", prefix, requestsPerMinute: 10, maxConcurrent: 3 })
    await c.observe({ "x-ratelimit-remaining": "0" })
    await expect(c.acquire(AbortSignal.timeout(150))).rejects.toBeInstanceOf(AbortedError)
    await c.pauseFor(0)
  })
})
