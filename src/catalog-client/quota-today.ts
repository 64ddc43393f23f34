// The day's request count as the catalog itself keeps it: every answer to the key carries
// X-Quota-Remaining, and the key's limiter (shared by every process and client of the key)
// keeps the lowest seen on the current UTC day. The catalog's count, not one of ours that can drift
// (429s and 304s, which the catalog does not count, and other users of the key are all right).
import { headerValue, type HeaderBag } from "./rate-limiter"

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
