// Requests the catalog counted today for the key: its daily limit (from /v1/me) less the
// remaining quota its answers carried (kept by the key's limiter, catalog-client/quota-today.ts).

export type RequestsToday = { used: number; limit: number }

/** null when either figure is unknown (no answer today, or no /v1/me read yet). */
export function requestsToday(limitPerDay: number | null | undefined, remainingToday: number | null | undefined): RequestsToday | null {
  if (typeof limitPerDay !== "number" || !Number.isFinite(limitPerDay) || limitPerDay <= 0) return null
  if (typeof remainingToday !== "number" || !Number.isFinite(remainingToday)) return null
  return { used: Math.max(0, limitPerDay - remainingToday), limit: limitPerDay }
}
