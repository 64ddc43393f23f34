// Section 8 limits: per key a sliding 60 s window and a cap on requests in flight; per account a
// daily quota that resets at 00:00 UTC. Rejected (429) requests count in neither.

const WINDOW_MS = 60_000

export type Admission = { ok: true; rateRemaining: number } | { ok: false; reason: "per_minute" | "concurrency"; retryAfterSeconds: number }

export class KeyLimiter {
  private readonly windows = new Map<string, number[]>()
  private readonly inFlight = new Map<string, number>()

  constructor(
    public rpm: number,
    public concurrency: number
  ) {}

  admit(key: string, nowMs: number): Admission {
    const window = this.prunedWindow(key, nowMs)
    if (window.length >= this.rpm) {
      // A slot frees when the oldest request in the window leaves it.
      const freesAt = window[window.length - this.rpm] + WINDOW_MS
      return { ok: false, reason: "per_minute", retryAfterSeconds: Math.max(1, Math.ceil((freesAt - nowMs) / 1000)) }
    }
    const running = this.inFlight.get(key) ?? 0
    if (running >= this.concurrency) return { ok: false, reason: "concurrency", retryAfterSeconds: 1 }
    window.push(nowMs)
    this.inFlight.set(key, running + 1)
    return { ok: true, rateRemaining: this.rpm - window.length }
  }

  release(key: string): void {
    const running = this.inFlight.get(key) ?? 0
    if (running <= 1) this.inFlight.delete(key)
    else this.inFlight.set(key, running - 1)
  }

  /** Takes back the slot of a request admitted and then refused for another reason (quota). */
  forget(key: string): void {
    this.windows.get(key)?.pop()
  }

  remaining(key: string, nowMs: number): number {
    return Math.max(0, this.rpm - this.prunedWindow(key, nowMs).length)
  }

  reset(): void {
    this.windows.clear()
  }

  private prunedWindow(key: string, nowMs: number): number[] {
    let window = this.windows.get(key)
    if (!window) {
      window = []
      this.windows.set(key, window)
    }
    let expired = 0
    while (expired < window.length && window[expired] <= nowMs - WINDOW_MS) expired++
    if (expired > 0) window.splice(0, expired)
    return window
  }
}

export class DailyQuota {
  private day = ""
  private used = 0

  constructor(
    public limit: number,
    public enforced: boolean
  ) {}

  usedToday(nowMs: number): number {
    this.roll(nowMs)
    return this.used
  }

  remaining(nowMs: number): number {
    return Math.max(0, this.limit - this.usedToday(nowMs))
  }

  exhausted(nowMs: number): boolean {
    return this.enforced && this.usedToday(nowMs) >= this.limit
  }

  count(nowMs: number): void {
    this.roll(nowMs)
    this.used++
  }

  /** A 304 is not counted: undo the count taken on admission. */
  uncount(): void {
    if (this.used > 0) this.used--
  }

  reset(): void {
    this.used = 0
  }

  /** Seconds until the quota resets at the next 00:00 UTC. */
  secondsUntilReset(nowMs: number): number {
    const midnight = new Date(nowMs)
    midnight.setUTCHours(24, 0, 0, 0)
    return Math.max(1, Math.ceil((midnight.getTime() - nowMs) / 1000))
  }

  private roll(nowMs: number): void {
    const day = new Date(nowMs).toISOString().slice(0, 10)
    if (day !== this.day) {
      this.day = day
      this.used = 0
    }
  }
}
