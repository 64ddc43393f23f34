// Whether an account can use the API, in words a shop owner understands. The one judgement of
// /v1/me's answer (Test connection, Save's key check, the CLI): /v1/me answers 200 for any plan,
// while every other endpoint answers 403 plan_required for a plan without API access or an
// expired one (spec §5: "Access requires the Ultra plan"; a plan without API access, or an
// expired subscription, gives 403 plan_required).
import type { AccountInfo } from "./schemas"

/** The plan the API needs (spec §1 and §5). */
export const API_PLAN = "Ultra"
const ULTRA_WORD = new RegExp(`(^|[^\\p{L}\\p{N}])${API_PLAN}($|[^\\p{L}\\p{N}])`, "iu")

export interface AccountAccess {
  ok: boolean
  /** "ok"; "no_plan" (no plan, or one without API access); "expired". */
  status: "ok" | "no_plan" | "expired"
  message: string
  /** When the plan ended (ISO), for "expired". */
  expiredAt?: string
}

/** "1 Dec 2026" (UTC). */
export function planDate(time: number): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(time))
}

export function accountAccess(info: Pick<AccountInfo, "plan" | "plan_expires_at">, now: Date = new Date()): AccountAccess {
  if (!info.plan) {
    return { ok: false, status: "no_plan", message: `The account has no plan with API access (the ${API_PLAN} plan is required).` }
  }
  // The plan's name as /v1/me tells it ("not shown" in the spec): the word Ultra in it, whatever
  // else it says ("Ultra (annual)"), so a working key is not refused for a longer name.
  if (!ULTRA_WORD.test(info.plan)) {
    return { ok: false, status: "no_plan", message: `The ${info.plan} plan has no API access (the ${API_PLAN} plan is required).` }
  }
  if (info.plan_expires_at) {
    const expires = Date.parse(info.plan_expires_at)
    if (!Number.isNaN(expires) && expires <= now.getTime()) {
      return {
        ok: false,
        status: "expired",
        message: `The ${info.plan} plan expired on ${planDate(expires)}; renew it to use the API.`,
        expiredAt: new Date(expires).toISOString(),
      }
    }
  }
  return {
    ok: true,
    status: "ok",
    message: info.plan_expires_at ? `${info.plan} plan, valid until ${info.plan_expires_at}.` : `${info.plan} plan, no end date.`,
  }
}
