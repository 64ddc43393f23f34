// Why an account that /v1/me answered still cannot sync. /v1/me answers 200 for any plan while
// every other endpoint answers 403 plan_required for a plan without API access or an expired one,
// so "the key works" is not "runs work": Test connection and Save both ask this (accountAccess,
// the one judgement of /v1/me's answer), and say what a failed run says.
import { accountAccess, planDate, type AccountInfo } from "../../../../catalog-client"
import type { ApiErrorBody } from "../helpers"

/**
 * `plan_expired` with the date when `plan_expires_at` is past; `plan_required` (the code a run
 * gets) for no plan or a plan without API access; null when the plan can sync.
 */
export function accountProblem(account: Pick<AccountInfo, "plan" | "plan_expires_at">, now: Date = new Date()): ApiErrorBody | null {
  const access = accountAccess(account, now)
  if (access.ok) return null
  if (access.status === "expired" && access.expiredAt) {
    return {
      code: "plan_expired",
      message: `The catalog account's plan expired on ${planDate(Date.parse(access.expiredAt))}. Syncs are refused until it is renewed.`,
      request_id: null,
      expired_at: access.expiredAt,
    }
  }
  return {
    code: "plan_required",
    message: "The catalog account's plan has no API access.",
    request_id: null,
  }
}
