// Rate limiter shared through Redis by every process that uses one API key (the budget is per
// key, not per process). Same rules as MemoryRateLimiter, applied atomically by Lua scripts on
// Redis time, so clocks of the processes do not matter:
//   {p}:window   ZSET  end stamps of finished requests and booked foreign use (score = ms)
//   {p}:inflight ZSET  leases of requests in flight (score = lease expiry ms); a crashed process
//                      loses its leases when they expire, and they are then booked into the window
//   {p}:state    HASH  tat (pacing), nb (paused until), rpm / conc (adopted limits),
//                      qday / qrem / qat (the catalog's remaining daily quota for a UTC day and when
//                      it was seen, quota-today.ts), pday / prpm (the plan /v1/me last reported)
// The key id is a hash of the API key, never the key itself.
import { createHash, randomUUID } from "node:crypto"
import type Redis from "ioredis"
import { abortReason, sleep } from "./abort"
import { apiKeyId } from "./key-id"
import {
  clampLimits,
  DEFAULT_LIMITS,
  limitCeiling,
  remainingFromHeaders,
  sanitizeLimits,
  WINDOW_MARGIN_MS,
  WINDOW_MS,
  type HeaderBag,
  type KnownPlan,
  type PlanFigures,
  type RateLimiter,
  type RateLimits,
  type Release,
} from "./rate-limiter"
import { planDisagrees, quotaRemainingFromHeaders } from "./quota-today"

const NOW = `
local t = redis.call('TIME')
local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// Expired leases (crashed holders) are booked into the window at their expiry; old stamps leave.
const PRUNE = `
local function prune(now)
  local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'WITHSCORES')
  for i = 1, #expired, 2 do redis.call('ZADD', KEYS[1], expired[i + 1], expired[i]) end
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${WINDOW_MS + WINDOW_MARGIN_MS})
end
`

// Limits adopted by any holder of the key, capped by this caller's ceiling.
const limits = (rpm: number, conc: number, ceilRpm: number, ceilConc: number) => `
local rpm = math.min(tonumber(redis.call('HGET', KEYS[3], 'rpm') or ARGV[${rpm}]), tonumber(ARGV[${ceilRpm}]))
local conc = math.min(tonumber(redis.call('HGET', KEYS[3], 'conc') or ARGV[${conc}]), tonumber(ARGV[${ceilConc}]))
`

// KEYS: window, inflight, state. ARGV: leaseId, rpm, conc, leaseTtlMs, ceiling rpm, ceiling conc.
// Returns 0 when the lease was taken, else the ms to wait (-1: wait for a release).
const ACQUIRE = `
${NOW}
${limits(2, 3, 5, 6)}
${PRUNE}
prune(nowMs)
local nb = tonumber(redis.call('HGET', KEYS[3], 'nb') or '0')
if nowMs < nb then return nb - nowMs end
local inflight = redis.call('ZCARD', KEYS[2])
if inflight >= conc then return -1 end
local ended = redis.call('ZCARD', KEYS[1])
if inflight + ended >= rpm then
  if ended == 0 then return -1 end
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + ${WINDOW_MS + WINDOW_MARGIN_MS} - nowMs + 1)
end
local interval = ${WINDOW_MS} / rpm
local tolerance = (conc - 1) * interval
local tat = tonumber(redis.call('HGET', KEYS[3], 'tat') or '0')
if tat < nowMs then tat = nowMs end
if tat - nowMs > tolerance then return math.max(1, math.ceil(tat - tolerance - nowMs)) end
redis.call('HSET', KEYS[3], 'tat', tostring(tat + interval))
redis.call('ZADD', KEYS[2], nowMs + tonumber(ARGV[4]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ${2 * WINDOW_MS})
redis.call('PEXPIRE', KEYS[2], ${2 * WINDOW_MS})
redis.call('PEXPIRE', KEYS[3], 86400000)
return 0
`

// KEYS: window, inflight. ARGV: leaseId, holdMs. Moves the lease into the window at its end
// (or keeps it in flight for holdMs more, after which prune books it).
const RELEASE = `
${NOW}
local removed = redis.call('ZREM', KEYS[2], ARGV[1])
if removed == 1 then
  local hold = tonumber(ARGV[2])
  if hold > 0 then
    redis.call('ZADD', KEYS[2], nowMs + hold, ARGV[1])
  else
    redis.call('ZADD', KEYS[1], nowMs, ARGV[1])
  end
  redis.call('PEXPIRE', KEYS[1], ${2 * WINDOW_MS})
end
return removed
`

// KEYS: inflight. ARGV: leaseId, leaseTtlMs. Extends a live lease, and the set's own expiry
// with it (a request held longer than that would otherwise vanish with the whole set).
const RENEW = `
${NOW}
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], 'XX', nowMs + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ${2 * WINDOW_MS})
return 1
`

// KEYS: window, inflight, state. ARGV: remaining, rpm, conc, ceiling rpm, ceiling conc.
// Books foreign use into the window.
const OBSERVE = `
${NOW}
${limits(2, 3, 4, 5)}
${PRUNE}
prune(nowMs)
local count = redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[2])
local foreign = math.min(rpm - count - tonumber(ARGV[1]), rpm)
if foreign > 0 then
  local seq = redis.call('HINCRBY', KEYS[3], 'seq', 1)
  for i = 1, foreign do redis.call('ZADD', KEYS[1], nowMs, 'foreign:' .. seq .. ':' .. i) end
  redis.call('PEXPIRE', KEYS[1], ${2 * WINDOW_MS})
end
return math.max(foreign, 0)
`

// KEYS: window, state. ARGV: rpm, conc, previous rpm (local). Adopts limits for every holder of
// the key. A pace set under a slower limit must not hold back the first request under a faster
// one; foreign use booked under a higher limit was overstated by the difference, so that many of
// the newest bookings are dropped.
const UPDATE_LIMITS = `
${NOW}
local previous = tonumber(redis.call('HGET', KEYS[2], 'rpm') or ARGV[3])
local rpm = tonumber(ARGV[1])
redis.call('HSET', KEYS[2], 'rpm', ARGV[1], 'conc', ARGV[2])
local cap = nowMs + ${WINDOW_MS} / rpm
local tat = tonumber(redis.call('HGET', KEYS[2], 'tat') or '0')
if tat > cap then redis.call('HSET', KEYS[2], 'tat', tostring(cap)) end
local overstated = previous - rpm
if overstated > 0 then
  local newest = redis.call('ZREVRANGE', KEYS[1], 0, -1)
  for i = 1, #newest do
    if overstated <= 0 then break end
    if string.sub(newest[i], 1, 8) == 'foreign:' then
      redis.call('ZREM', KEYS[1], newest[i])
      overstated = overstated - 1
    end
  end
end
redis.call('PEXPIRE', KEYS[2], 86400000)
return 1
`

// KEYS: state. ARGV: ms. Pauses every holder of the key.
const PAUSE = `
${NOW}
local until_ = nowMs + tonumber(ARGV[1])
local nb = tonumber(redis.call('HGET', KEYS[1], 'nb') or '0')
if until_ > nb then redis.call('HSET', KEYS[1], 'nb', tostring(until_)) end
redis.call('PEXPIRE', KEYS[1], 86400000)
return 1
`

// KEYS: state. ARGV: remaining, concurrency. Keeps the catalog's remaining daily quota for the
// key's current UTC day on Redis time (the rule of nextQuotaRemaining in quota-today.ts). Returns
// what was kept before (remaining and when, false when none today), the plan, and Redis time,
// for the check of the answer against the plan (planDisagrees).
const QUOTA_SEEN = `
${NOW}
local day = tostring(math.floor(nowMs / 86400000))
local rem = tonumber(ARGV[1])
local keptDay = redis.call('HGET', KEYS[1], 'qday')
local kept = tonumber(redis.call('HGET', KEYS[1], 'qrem') or '-1')
local keptAt = redis.call('HGET', KEYS[1], 'qat') or false
local before = {false, false}
if keptDay == day and kept >= 0 and keptAt then before = {tostring(kept), keptAt} end
if keptDay ~= day or kept < 0 or rem < kept or rem - kept > tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 'qday', day, 'qrem', ARGV[1])
end
redis.call('HSET', KEYS[1], 'qat', tostring(nowMs))
redis.call('PEXPIRE', KEYS[1], 86400000)
return {before[1], before[2], redis.call('HGET', KEYS[1], 'pday') or false, redis.call('HGET', KEYS[1], 'prpm') or false, tostring(nowMs)}
`

// KEYS: state. ARGV: requests per day, requests per minute, quota enforced ("1", "0", "" unknown).
// The plan /v1/me reported; no longer stale.
const PLAN_SEEN = `
redis.call('HSET', KEYS[1], 'pday', ARGV[1], 'prpm', ARGV[2], 'penf', ARGV[3])
redis.call('HDEL', KEYS[1], 'pstale')
redis.call('PEXPIRE', KEYS[1], 86400000)
return 1
`

// KEYS: state. The catalog answered 429 daily_quota_exceeded: nothing left today (Redis time), refused
// today, and the plan's limit stale (a lowered quota may be why) until /v1/me answers again.
const QUOTA_REFUSED = `
${NOW}
local day = tostring(math.floor(nowMs / 86400000))
redis.call('HSET', KEYS[1], 'qday', day, 'qrem', '0', 'qat', tostring(nowMs), 'qref', day, 'pstale', '1')
redis.call('PEXPIRE', KEYS[1], 86400000)
return 1
`

// KEYS: state. The plan held is not told as current (a refused key or plan). Only a key whose plan
// was seen has one to mark: a mistyped key's refusal leaves nothing behind.
const PLAN_STALE = `
if redis.call('HEXISTS', KEYS[1], 'pday') == 0 then return 0 end
redis.call('HSET', KEYS[1], 'pstale', '1')
redis.call('PEXPIRE', KEYS[1], 86400000)
return 1
`

// KEYS: state. Whether a request was refused for the daily quota on the current UTC day (Redis time).
const QUOTA_REFUSED_TODAY = `
${NOW}
local day = tostring(math.floor(nowMs / 86400000))
if redis.call('HGET', KEYS[1], 'qref') == day then return 1 end
return 0
`

// KEYS: state. The remaining daily quota kept for today (Redis time), or false.
const QUOTA_TODAY = `
${NOW}
local day = tostring(math.floor(nowMs / 86400000))
if redis.call('HGET', KEYS[1], 'qday') ~= day then return false end
return redis.call('HGET', KEYS[1], 'qrem')
`

interface Script {
  source: string
  sha: string
}

function script(source: string): Script {
  return { source, sha: createHash("sha1").update(source).digest("hex") }
}

const SCRIPTS = {
  acquire: script(ACQUIRE),
  release: script(RELEASE),
  renew: script(RENEW),
  observe: script(OBSERVE),
  pause: script(PAUSE),
  updateLimits: script(UPDATE_LIMITS),
  quotaSeen: script(QUOTA_SEEN),
  quotaToday: script(QUOTA_TODAY),
  quotaRefused: script(QUOTA_REFUSED),
  quotaRefusedToday: script(QUOTA_REFUSED_TODAY),
  planSeen: script(PLAN_SEEN),
  planStale: script(PLAN_STALE),
}

export interface RedisRateLimiterOptions extends Partial<RateLimits> {
  redis: Redis
  /** Either the API key (named here by apiKeyId, never stored) or a key id from apiKeyId. */
  apiKey?: string
  keyId?: string
  /** Redis key prefix, default "catalog-sync:ratelimit". */
  prefix?: string
  /** A lease not renewed for this long is considered dead (crashed process). Default 30 s. */
  leaseTtlMs?: number
  /** Longest single wait between polls of Redis while queued. Default 250 ms. */
  pollMs?: number
  /** Most that adopted limits may raise to (see limitCeiling); also caps limits read from Redis. */
  ceiling?: Partial<RateLimits>
}

export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis
  readonly #keys: [string, string, string]
  readonly #leaseTtlMs: number
  readonly #pollMs: number
  #limits: RateLimits
  readonly #ceiling: RateLimits
  /** Serialises this process's waiters (FIFO) so only one of them polls Redis at a time. */
  #turn: Promise<void> = Promise.resolve()
  #wake: { promise: Promise<void>; resolve: () => void } = this.#newWake()

  constructor(options: RedisRateLimiterOptions) {
    const keyId = options.keyId ?? (options.apiKey !== undefined ? apiKeyId(options.apiKey) : undefined)
    if (!keyId) throw new TypeError("RedisRateLimiter needs apiKey or keyId")
    const base = `${options.prefix ?? "catalog-sync:ratelimit"}:{${keyId}}`
    this.#redis = options.redis
    this.#keys = [`${base}:window`, `${base}:inflight`, `${base}:state`]
    this.#leaseTtlMs = options.leaseTtlMs ?? 30_000
    this.#pollMs = options.pollMs ?? 250
    this.#limits = sanitizeLimits(DEFAULT_LIMITS, options)
    this.#ceiling = limitCeiling(options, options.ceiling)
  }

  get limits(): RateLimits {
    return { ...this.#limits }
  }

  async acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) throw abortReason(signal)
    const previous = this.#turn
    let done!: () => void
    this.#turn = new Promise<void>((resolve) => (done = resolve))
    try {
      await waitTurn(previous, signal)
      const leaseId = randomUUID()
      for (;;) {
        const wake = this.#wake.promise
        const wait = Number(
          await this.#run(SCRIPTS.acquire, 3, [
            leaseId,
            String(this.#limits.requestsPerMinute),
            String(this.#limits.maxConcurrent),
            String(this.#leaseTtlMs),
            ...this.#ceilingArgs(),
          ])
        )
        if (wait === 0) return this.#releaser(leaseId)
        await sleep(wait < 0 ? Math.min(20, this.#pollMs) : Math.min(wait, this.#pollMs), signal, wake)
      }
    } finally {
      done()
    }
  }

  async updateLimits(limits: Partial<RateLimits>): Promise<void> {
    const previous = this.#limits.requestsPerMinute
    this.#limits = clampLimits(sanitizeLimits(this.#limits, limits), this.#ceiling)
    await this.#runKeys(
      SCRIPTS.updateLimits,
      [this.#keys[0], this.#keys[2]],
      [String(this.#limits.requestsPerMinute), String(this.#limits.maxConcurrent), String(previous)]
    )
  }

  async observe(headers: HeaderBag): Promise<{ planDisagrees: boolean }> {
    const quota = quotaRemainingFromHeaders(headers)
    const remaining = remainingFromHeaders(headers)
    let disagrees = false
    if (quota !== null) {
      const seen = (await this.#runKeys(SCRIPTS.quotaSeen, [this.#keys[2]], [String(quota), String(this.#limits.maxConcurrent)])) as unknown[]
      const [keptRemaining, keptAt, perDay, perMinute, now] = (Array.isArray(seen) ? seen : []).map((v) => (v === null || v === undefined ? null : Number(v)))
      disagrees = planDisagrees({
        plan: perDay != null && perMinute != null ? { requestsPerDay: perDay, requestsPerMinute: perMinute } : null,
        kept: keptRemaining != null && keptAt != null ? { remaining: keptRemaining, at: keptAt } : null,
        quotaRemaining: quota,
        rateRemaining: remaining,
        now: now ?? Date.now(),
        maxConcurrent: this.#limits.maxConcurrent,
      })
      // Until /v1/me answers again, the plan's figures are not told as today's.
      if (disagrees) await this.planStale()
    }
    if (remaining !== null) {
      await this.#run(SCRIPTS.observe, 3, [
        String(remaining),
        String(this.#limits.requestsPerMinute),
        String(this.#limits.maxConcurrent),
        ...this.#ceilingArgs(),
      ])
    }
    return { planDisagrees: disagrees }
  }

  async planSeen(plan: PlanFigures): Promise<void> {
    const enforced = plan.quotaEnforced === true ? "1" : plan.quotaEnforced === false ? "0" : ""
    await this.#runKeys(SCRIPTS.planSeen, [this.#keys[2]], [String(plan.requestsPerDay), String(plan.requestsPerMinute), enforced])
  }

  async plan(): Promise<KnownPlan | null> {
    const [perDay, perMinute, enforced, stale] = await this.#redis.hmget(this.#keys[2], "pday", "prpm", "penf", "pstale")
    if (perDay === null || perMinute === null) return null
    return {
      requestsPerDay: Number(perDay),
      requestsPerMinute: Number(perMinute),
      quotaEnforced: enforced === "1" ? true : enforced === "0" ? false : null,
      stale: stale === "1",
    }
  }

  async planStale(): Promise<void> {
    await this.#runKeys(SCRIPTS.planStale, [this.#keys[2]], [])
  }

  async quotaRefused(): Promise<void> {
    await this.#runKeys(SCRIPTS.quotaRefused, [this.#keys[2]], [])
  }

  async quotaRefusedToday(): Promise<boolean> {
    return Number(await this.#runKeys(SCRIPTS.quotaRefusedToday, [this.#keys[2]], [])) === 1
  }

  async quotaRemainingToday(): Promise<number | null> {
    const kept = await this.#runKeys(SCRIPTS.quotaToday, [this.#keys[2]], [])
    return kept === null || kept === undefined ? null : Number(kept)
  }

  #ceilingArgs(): [string, string] {
    return [String(this.#ceiling.requestsPerMinute), String(this.#ceiling.maxConcurrent)]
  }

  async pauseFor(ms: number): Promise<void> {
    await this.#runKeys(SCRIPTS.pause, [this.#keys[2]], [String(Math.ceil(ms))])
  }

  #releaser(leaseId: string): Release {
    let released = false
    const renew = setInterval(
      () => {
        this.#runKeys(SCRIPTS.renew, [this.#keys[1]], [leaseId, String(this.#leaseTtlMs)]).catch(() => {})
      },
      Math.max(1000, Math.floor(this.#leaseTtlMs / 3))
    )
    renew.unref()
    return (options) => {
      if (released) return
      released = true
      clearInterval(renew)
      const holdMs = Math.max(0, Math.ceil(options?.holdMs ?? 0))
      // A failed release only delays the slot until the lease expires; never throw from here.
      this.#runKeys(SCRIPTS.release, [this.#keys[0], this.#keys[1]], [leaseId, String(holdMs)])
        .catch(() => {})
        .finally(() => this.#signalWake())
    }
  }

  #newWake() {
    let resolve!: () => void
    const promise = new Promise<void>((r) => (resolve = r))
    return { promise, resolve }
  }

  #signalWake(): void {
    const current = this.#wake
    this.#wake = this.#newWake()
    current.resolve()
  }

  #run(s: Script, keyCount: number, args: string[]): Promise<unknown> {
    return this.#runKeys(s, this.#keys.slice(0, keyCount), args)
  }

  async #runKeys(s: Script, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.#redis.evalsha(s.sha, keys.length, ...keys, ...args)
    } catch (error) {
      if (!String((error as Error)?.message ?? "").includes("NOSCRIPT")) throw error
      return this.#redis.eval(s.source, keys.length, ...keys, ...args)
    }
  }
}

async function waitTurn(previous: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return previous
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal))
    signal.addEventListener("abort", onAbort, { once: true })
    previous.then(() => {
      signal.removeEventListener("abort", onAbort)
      resolve()
    })
  })
}
