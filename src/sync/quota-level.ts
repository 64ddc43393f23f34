// Where the day's request quota stands (pure): X-Quota-Remaining against the account's
// requests_per_day (from /v1/me).

import type { QuotaToday } from "./requests-today"

/** Used share of the day's quota from which the owner is told. */
export const QUOTA_ALERT_PERCENT = 80

/**
 * The used share of the day's quota in percent, to one decimal (86.4), as the sync page's bar and
 * the bell's 80 % alert both say it; 100 at most.
 */
export function quotaPercent(used: number, limit: number): number {
  return Math.min(100, Math.round((used / limit) * 1000) / 10)
}

export type QuotaLevel = { level: "high"; used: number; limit: number } | { level: "spent" } | { level: "ok" }

/**
 * "spent" when nothing is left; "high" when QUOTA_ALERT_PERCENT % or more of a known limit is used; "ok" otherwise, or when nothing is known (no header seen yet).
 */
export function quotaLevel(remaining: number | null, limit: number | null): QuotaLevel {
  if (remaining === null || !Number.isFinite(remaining)) return { level: "ok" }
  if (remaining <= 0) return { level: "spent" }
  if (limit === null || !Number.isFinite(limit) || limit <= 0) return { level: "ok" }
  const used = Math.max(0, limit - remaining)
  // Integers: used / limit ≥ 80 % without a float.
  return used * 100 >= limit * QUOTA_ALERT_PERCENT ? { level: "high", used, limit } : { level: "ok" }
}

/**
 * The quota's day, which names its alerts (one of each a day). The API does not say when its day
 * turns; a UTC day is assumed (the sandbox resets at 00:00 UTC).
 */
export function quotaDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10)
}

export type QuotaAlert = { kind: "quota_spent"; enforced: boolean | null; passed: boolean } | { kind: "quota_high"; used: number; limit: number }

/**
 * What the quota alerts tell from the one quota answer (src/sync/requests-today.ts), or null.
 * A limit not known as current is never used (no "9,996 of 10,000" from an old plan). While a run
 * goes, "spent" is told only on the catalog's own refusal (it enforces the quota); whether it
 * does not (the run went on past zero) or is not known, the check after the run (`runEnded`) says.
 * `passed`: the run's client saw a request counted past the quota (QuotaSnapshot.quotaPassed);
 * without it the quota is reached (used up), not passed.
 */
export function quotaAlert(today: QuotaToday | null, runEnded: boolean, passed = false): QuotaAlert | null {
  if (!today) return null
  if (today.spent) {
    if (!runEnded && today.enforced !== true) return null
    return { kind: "quota_spent", enforced: today.enforced, passed }
  }
  const level = quotaLevel(today.remaining, today.limit)
  return level.level === "high" ? { kind: "quota_high", used: level.used, limit: level.limit } : null
}
