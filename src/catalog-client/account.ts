// Whether an account can use the API, in words a shop owner understands.
import type { AccountInfo } from "./schemas"

export interface AccountAccess {
  ok: boolean
  /** "ok", "no_plan" or "expired". */
  status: "ok" | "no_plan" | "expired"
  message: string
}

export function accountAccess(info: AccountInfo, now: Date = new Date()): AccountAccess {
  if (!info.plan) {
    return { ok: false, status: "no_plan", message: "The account has no plan with API access (the Ultra plan is required)." }
  }
  if (info.plan_expires_at) {
    const expires = Date.parse(info.plan_expires_at)
    if (!Number.isNaN(expires) && expires <= now.getTime()) {
      return {
        ok: false,
        status: "expired",
        message: `The ${info.plan} plan expired at ${info.plan_expires_at}; renew it to use the API.`,
      }
    }
  }
  return {
    ok: true,
    status: "ok",
    message: info.plan_expires_at ? `${info.plan} plan, valid until ${info.plan_expires_at}.` : `${info.plan} plan, no end date.`,
  }
}
