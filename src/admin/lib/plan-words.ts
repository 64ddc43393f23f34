// The one wording of a catalog plan that cannot sync (issue 43: an expired plan was told three
// ways on one panel). The blocked notice, the last run, the progress line and Test connection all
// say it with planRefusalSentence: its date when the plan ended, else that it has no API access.
import { formatDate } from "./format"

/** The plan's end when it is past (why the catalog refuses it), else null (a plan without API access, or unknown). */
export function expiredAtOf(account: { plan_expires_at?: string | null } | null | undefined, now: number = Date.now()): string | null {
  const at = account?.plan_expires_at
  if (!at) return null
  const time = Date.parse(at)
  return !Number.isNaN(time) && time <= now ? at : null
}

/** "The catalog account's plan expired on 1 Dec 2026." or "The catalog account's plan has no API access." */
export function planRefusalSentence(expiredAt: string | null | undefined, timeZone?: string): string {
  const date = expiredAt ? formatDate(expiredAt, timeZone) : "—"
  return date !== "—" ? `The catalog account's plan expired on ${date}.` : "The catalog account's plan has no API access."
}

/** The same words inside a line ("Stopped: the catalog account's plan expired on 1 Dec 2026"). */
export function planRefusalPhrase(expiredAt: string | null | undefined, timeZone?: string): string {
  const sentence = planRefusalSentence(expiredAt, timeZone)
  return sentence.charAt(0).toLowerCase() + sentence.slice(1, -1)
}

/**
 * Why the plan is not known, by the code of /status's failed /v1/me (`account_error`): after the
 * catalog refused the key, /status asks /v1/me again rather than show the plan it read before, so
 * the row says the plan is not known while the key is refused, never the old plan as the plan now.
 */
const PLAN_NOT_KNOWN: Record<string, string> = {
  invalid_api_key: "Not known while the catalog refuses the key.",
  plan_required: "Not known: the catalog refused the account's plan.",
  rate_limited: "Not known right now: the catalog is limiting requests for this key.",
  daily_quota_exceeded: "Not known right now: the catalog is limiting requests for this key.",
}

/**
 * The Plan row of the sync page: the plan and its end, never a problem's sentence (a refused key,
 * a spent quota: the notice above tells those once). `when` formats the end (the panel's format).
 * `accountFailed`: /status's `account_error` (its code words why the plan is not known), or whether there was one.
 */
export function planRowText(
  account: { plan: string | null; plan_expires_at: string | null } | null | undefined,
  accountFailed: boolean | { code?: string | null } | null | undefined,
  when: (iso: string) => string,
  now: number = Date.now()
): string {
  if (!account) {
    if (!accountFailed) return "—"
    const code = typeof accountFailed === "object" ? accountFailed.code : null
    return (code && PLAN_NOT_KNOWN[code]) || "Not known: the catalog did not tell it."
  }
  const name = account.plan ?? "No plan"
  if (!account.plan_expires_at) return `${name} · no expiry`
  return `${name} · ${expiredAtOf(account, now) ? "expired" : "until"} ${when(account.plan_expires_at)}`
}

/**
 * What a refused plan stops, after the one sentence: the sync page's notice, the summary line and
 * the reason "Sync now" cannot start all say this (issue 43: "needs an active plan", "has no API
 * access" and "has no API access or has ended" were three wordings of one refusal).
 */
export function planBlockedText(expiredAt: string | null | undefined, timeZone?: string): string {
  const phrase = planRefusalPhrase(expiredAt, timeZone)
  return `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}: no sync runs until it is renewed and the settings are saved.`
}
