// Rate limiter for a single process. Same rules as RedisRateLimiter:
// - at most `maxConcurrent` in flight;
// - at most `requestsPerMinute` in any 60-s window, where a request counts from its start until
//   60 s + margin after its end (the server stamped it somewhere in between);
// - starts are paced one emission interval apart, with a burst of `maxConcurrent`;
// - foreign use seen in X-RateLimit-Remaining is booked into the window; 429 pauses everyone.
import { abortReason } from "./abort"
import {
  clampLimits,
  DEFAULT_LIMITS,
  emissionIntervalMs,
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
import { nextQuotaRemaining, planDisagrees, quotaRemainingFromHeaders, utcDay } from "./quota-today"

interface Waiter {
  grant: (release: Release) => void
  fail: (error: Error) => void
  signal?: AbortSignal
  onAbort?: () => void
}

export interface MemoryRateLimiterOptions extends Partial<RateLimits> {
  /** Most that adopted limits may raise to (see limitCeiling). */
  ceiling?: Partial<RateLimits>
  now?: () => number
}

export class MemoryRateLimiter implements RateLimiter {
  #limits: RateLimits
  readonly #ceiling: RateLimits
  #inFlight = 0
  /** End stamps of finished requests, ascending. */
  #ended: number[] = []
  #endedHead = 0
  /** Stamps of foreign use booked from X-RateLimit-Remaining, ascending. */
  #foreign: number[] = []
  #theoreticalArrival = 0
  #notBefore = 0
  /** The catalog's remaining daily quota as its answers told it (quota-today.ts). */
  #quotaToday: { day: number; remaining: number } | null = null
  /** When the last answer with a quota figure came (ms), for the check against the plan. */
  #quotaSeenAt: number | null = null
  /** The plan /v1/me last reported to a client of this limiter. */
  #plan: PlanFigures | null = null
  #planStale = false
  #quotaRefusedDay: number | null = null
  #queue: Waiter[] = []
  #timer: NodeJS.Timeout | undefined
  readonly #now: () => number

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.#limits = sanitizeLimits(DEFAULT_LIMITS, options)
    this.#ceiling = limitCeiling(options, options.ceiling)
    this.#now = options.now ?? Date.now
  }

  get limits(): RateLimits {
    return { ...this.#limits }
  }

  /** Requests in flight right now (for tests and status). */
  get inFlight(): number {
    return this.#inFlight
  }

  acquire(signal?: AbortSignal): Promise<Release> {
    return new Promise<Release>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal))
      const waiter: Waiter = { grant: resolve, fail: reject, signal }
      if (signal) {
        waiter.onAbort = () => {
          const index = this.#queue.indexOf(waiter)
          if (index >= 0) this.#queue.splice(index, 1)
          reject(abortReason(signal))
          this.#pump()
        }
        signal.addEventListener("abort", waiter.onAbort, { once: true })
      }
      this.#queue.push(waiter)
      this.#pump()
    })
  }

  async updateLimits(limits: Partial<RateLimits>): Promise<void> {
    const previous = this.#limits.requestsPerMinute
    this.#limits = clampLimits(sanitizeLimits(this.#limits, limits), this.#ceiling)
    // Foreign use was booked as (old limit − our count − remaining): under a lower real limit
    // that overstates it by the difference, so that many of the newest bookings are dropped.
    const overstated = previous - this.#limits.requestsPerMinute
    if (overstated > 0) this.#foreign.splice(Math.max(0, this.#foreign.length - overstated))
    // A pace set under a slower limit must not hold back the first request under a faster one.
    this.#theoreticalArrival = Math.min(this.#theoreticalArrival, this.#now() + emissionIntervalMs(this.#limits))
    this.#pump()
  }

  async observe(headers: HeaderBag): Promise<{ planDisagrees: boolean }> {
    const quota = quotaRemainingFromHeaders(headers)
    const remaining = remainingFromHeaders(headers)
    let disagrees = false
    if (quota !== null) {
      const now = this.#now()
      const day = utcDay(now)
      const kept =
        this.#quotaToday && this.#quotaToday.day === day && this.#quotaSeenAt !== null ? { remaining: this.#quotaToday.remaining, at: this.#quotaSeenAt } : null
      disagrees = planDisagrees({ plan: this.#plan, kept, quotaRemaining: quota, rateRemaining: remaining, now, maxConcurrent: this.#limits.maxConcurrent })
      this.#quotaToday = { day, remaining: nextQuotaRemaining(this.#quotaToday, day, quota, this.#limits.maxConcurrent) }
      this.#quotaSeenAt = now
      // Until /v1/me answers again, the plan's figures are not told as today's.
      if (disagrees) this.#planStale = true
    }
    if (remaining === null) return { planDisagrees: disagrees }
    const now = this.#now()
    this.#prune(now)
    const expected = this.#limits.requestsPerMinute - this.#windowCount()
    const foreign = Math.min(expected - remaining, this.#limits.requestsPerMinute)
    for (let i = 0; i < foreign; i++) this.#foreign.push(now)
    return { planDisagrees: disagrees }
  }

  async planSeen(plan: PlanFigures): Promise<void> {
    this.#plan = { ...plan }
    this.#planStale = false
  }

  async plan(): Promise<KnownPlan | null> {
    return this.#plan ? { ...this.#plan, quotaEnforced: this.#plan.quotaEnforced ?? null, stale: this.#planStale } : null
  }

  async planStale(): Promise<void> {
    this.#planStale = true
  }

  async quotaRefused(): Promise<void> {
    const day = utcDay(this.#now())
    this.#quotaToday = { day, remaining: 0 }
    this.#quotaSeenAt = this.#now()
    this.#quotaRefusedDay = day
    // The limit held may be why (a lowered quota): not told as today's until /v1/me answers again.
    this.#planStale = true
  }

  async quotaRefusedToday(): Promise<boolean> {
    return this.#quotaRefusedDay === utcDay(this.#now())
  }

  async quotaRemainingToday(): Promise<number | null> {
    return this.#quotaToday && this.#quotaToday.day === utcDay(this.#now()) ? this.#quotaToday.remaining : null
  }

  async pauseFor(ms: number): Promise<void> {
    this.#notBefore = Math.max(this.#notBefore, this.#now() + ms)
    this.#pump()
  }

  #windowCount(): number {
    return this.#inFlight + (this.#ended.length - this.#endedHead) + this.#foreign.length
  }

  #prune(now: number): void {
    const cutoff = now - WINDOW_MS - WINDOW_MARGIN_MS
    while (this.#endedHead < this.#ended.length && this.#ended[this.#endedHead] <= cutoff) this.#endedHead++
    if (this.#endedHead > 1024 && this.#endedHead * 2 > this.#ended.length) {
      this.#ended = this.#ended.slice(this.#endedHead)
      this.#endedHead = 0
    }
    let expired = 0
    while (expired < this.#foreign.length && this.#foreign[expired] <= cutoff) expired++
    if (expired > 0) this.#foreign.splice(0, expired)
  }

  /** The oldest stamp still in the window, or undefined. */
  #oldestStamp(): number | undefined {
    const ended = this.#endedHead < this.#ended.length ? this.#ended[this.#endedHead] : undefined
    const foreign = this.#foreign[0]
    if (ended === undefined) return foreign
    if (foreign === undefined) return ended
    return Math.min(ended, foreign)
  }

  /** 0 when a slot was taken; ms to wait; Infinity to wait for a release. */
  #tryTake(now: number): number {
    if (now < this.#notBefore) return this.#notBefore - now
    if (this.#inFlight >= this.#limits.maxConcurrent) return Infinity
    this.#prune(now)
    if (this.#windowCount() >= this.#limits.requestsPerMinute) {
      const oldest = this.#oldestStamp()
      if (oldest === undefined) return Infinity
      return oldest + WINDOW_MS + WINDOW_MARGIN_MS - now + 1
    }
    const interval = emissionIntervalMs(this.#limits)
    const tolerance = (this.#limits.maxConcurrent - 1) * interval
    const arrival = Math.max(this.#theoreticalArrival, now)
    if (arrival - now > tolerance) return Math.ceil(arrival - tolerance - now)
    this.#theoreticalArrival = arrival + interval
    this.#inFlight++
    return 0
  }

  #pump(): void {
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = undefined
    while (this.#queue.length > 0) {
      const wait = this.#tryTake(this.#now())
      if (wait === 0) {
        const waiter = this.#queue.shift()!
        if (waiter.onAbort) waiter.signal!.removeEventListener("abort", waiter.onAbort)
        waiter.grant(this.#releaser())
        continue
      }
      if (wait !== Infinity) this.#timer = setTimeout(() => this.#pump(), wait)
      return
    }
  }

  #releaser(): Release {
    let released = false
    return (options) => {
      if (released) return
      released = true
      const finish = () => {
        this.#inFlight--
        this.#ended.push(this.#now())
        this.#pump()
      }
      if (options?.holdMs && options.holdMs > 0) setTimeout(finish, options.holdMs).unref()
      else finish()
    }
  }
}
