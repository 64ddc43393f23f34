// Requests the catalog counted today for the key: its daily limit (from /v1/me) less the
// remaining quota its answers carried (kept by the key's limiter, catalog-client/quota-today.ts).
// Every quota figure the admin and the alerts tell comes from here, from the key's limiter: the
// plan /v1/me last reported (stale once the catalog's answers contradicted it), the remaining
// quota of today's answers, and whether a request was refused today for the quota.

export type RequestsToday = { used: number; limit: number }

/** null when either figure is unknown (no answer today, or no /v1/me read yet). */
export function requestsToday(limitPerDay: number | null | undefined, remainingToday: number | null | undefined): RequestsToday | null {
  if (typeof limitPerDay !== "number" || !Number.isFinite(limitPerDay) || limitPerDay <= 0) return null
  if (typeof remainingToday !== "number" || !Number.isFinite(remainingToday)) return null
  return { used: Math.max(0, limitPerDay - remainingToday), limit: limitPerDay }
}

/**
 * Today's quota as far as it is known. `used` and `limit` are null when the limit is not known as
 * current (no /v1/me read, or the catalog's answers contradicted it since: a changed plan, a
 * refused /v1/me, a 429 for the quota). `enforced`: true when the catalog refused a request today
 * for the quota, else what a current /v1/me said, else null (never an old "not enforced").
 * `spent`: nothing left today as last told (X-Quota-Remaining 0, or a 429 daily_quota_exceeded
 * until an answer tells more). `stale`: the
 * limit held is no longer told.
 */
export type QuotaToday = {
  /** X-Quota-Remaining as the catalog last told it today (the lowest of the day), or null. */
  remaining: number | null
  used: number | null
  limit: number | null
  enforced: boolean | null
  spent: boolean
  stale: boolean
}

export type HeldPlan = { requestsPerDay: number; quotaEnforced?: boolean | null; stale?: boolean }

/** null when nothing at all is known (no plan read, no answer today, no refusal today). */
export function quotaToday(input: { plan: HeldPlan | null; remaining: number | null; refusedToday: boolean }): QuotaToday | null {
  const { plan, refusedToday } = input
  const remaining = typeof input.remaining === "number" && Number.isFinite(input.remaining) ? input.remaining : null
  if (!plan && remaining === null && !refusedToday) return null
  const current = plan && !plan.stale ? plan : null
  const figures = requestsToday(current?.requestsPerDay ?? null, remaining)
  return {
    // The refusal set the limiter's remaining to 0; a later answer with more (a reset, a raised
    // quota) raises it again, so the refusal alone does not keep the day spent.
    remaining,
    used: figures?.used ?? null,
    limit: figures?.limit ?? null,
    enforced: refusedToday ? true : (current?.quotaEnforced ?? null),
    spent: remaining === 0 || (refusedToday && remaining === null),
    stale: !!plan?.stale,
  }
}
