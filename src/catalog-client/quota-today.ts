// The day's request count as the catalog itself keeps it: every answer to the key carries
// X-Quota-Remaining, and the key's limiter (shared by every process and client of the key)
// keeps the lowest seen on the current UTC day. The catalog's count, not one of ours that can drift
// (429s and 304s, which the catalog does not count, and other users of the key are all right).
import { headerValue, type HeaderBag, type PlanFigures } from "./rate-limiter"

/** X-Quota-Remaining of an answer, or null when absent or not a whole number. */
export function quotaRemainingFromHeaders(headers: HeaderBag): number | null {
  const raw = headerValue(headers, "x-quota-remaining")
  if (raw === undefined || !/^\s*[0-9]+\s*$/.test(raw)) return null
  return Number(raw)
}

/** The UTC day an instant falls in, as a day number (the catalog's quota resets at 00:00 UTC). */
export function utcDay(ms: number): number {
  return Math.floor(ms / 86_400_000)
}

/**
 * The remaining quota to keep after an answer: the lowest of the day (answers of concurrent
 * requests may arrive out of order), unless the new figure is higher by more than the requests
 * that can be in flight at once, which only a reset or a raised limit explains.
 */
export function nextQuotaRemaining(kept: { day: number; remaining: number } | null, day: number, remaining: number, maxConcurrent: number): number {
  if (!kept || kept.day !== day) return remaining
  if (remaining < kept.remaining || remaining - kept.remaining > maxConcurrent) return remaining
  return kept.remaining
}

/**
 * Whether an answer's headers contradict the plan /v1/me last reported, so the plan changed
 * since: more requests left today than the daily limit allows (a raised quota), more left this
 * minute than the per-minute limit allows (a raised rate), or a remaining quota that fell faster
 * than the per-minute limit lets the account spend (a lowered quota: "59 of 70" read as "9,989 of
 * 10,000"). `kept` is the remaining quota of the previous answer on the same UTC day and when it came.
 */
export function planDisagrees(input: {
  plan: PlanFigures | null
  kept: { remaining: number; at: number } | null
  quotaRemaining: number | null
  rateRemaining: number | null
  now: number
  maxConcurrent: number
}): boolean {
  const { plan, kept, quotaRemaining, rateRemaining } = input
  if (!plan) return false
  if (quotaRemaining !== null && quotaRemaining > plan.requestsPerDay) return true
  if (rateRemaining !== null && rateRemaining > plan.requestsPerMinute) return true
  if (quotaRemaining === null || !kept || utcDay(kept.at) !== utcDay(input.now)) return false
  const minutes = Math.max(1, (input.now - kept.at) / 60_000)
  return kept.remaining - quotaRemaining > plan.requestsPerMinute * minutes + input.maxConcurrent
}
