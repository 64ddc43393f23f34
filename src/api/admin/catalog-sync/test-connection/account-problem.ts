// Why an account that /v1/me answered still cannot sync. /v1/me answers 200 for an expired plan
// while every other endpoint answers 403 plan_required, so "the key works" is not "runs work":
// Test connection and Save both ask this, and say the same thing a failed run says.
import type { AccountInfo } from "../../../../catalog-client"
import type { ApiErrorBody } from "../helpers"

/** `plan_expired` with the date when `plan_expires_at` is past; null when the plan is current or unlimited. */
export function accountProblem(account: Pick<AccountInfo, "plan_expires_at">, now: Date = new Date()): ApiErrorBody | null {
  const expiresAt = account.plan_expires_at
  if (!expiresAt) return null
  const time = Date.parse(expiresAt)
  if (Number.isNaN(time) || time > now.getTime()) return null
  const expiredAt = new Date(time).toISOString()
  return {
    code: "plan_expired",
    message: `The catalog account's plan expired on ${expiredAt.slice(0, 10)}. Syncs are refused (403) until it is renewed.`,
    request_id: null,
    expired_at: expiredAt,
  }
}
