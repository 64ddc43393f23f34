// Issue 43: one expired plan was told three ways on one panel ("expired on 2026-12-01.", "Stopped:
// … has no API access", "This catalog account's plan has no API access."), and the Plan row showed
// error sentences instead of the plan.
import { errorVoice, runErrorSentence } from "../errors"
import { expiredAtOf, planBlockedText, planRefusalPhrase, planRefusalSentence, planRowText } from "../plan-words"
import { phaseText } from "../progress"
import { syncStartRefusal } from "../status"
import { summaryWarnings } from "../sync-summary"
import type { SyncStatus } from "../types"

const NOW = Date.parse("2026-12-07T03:00:00Z")
const expired = { plan: "Ultra", plan_expires_at: "2026-12-01T10:00:00Z" }

describe("the one wording of a refused plan", () => {
  it("an expired plan: its date as the panel writes dates, everywhere", () => {
    const at = expiredAtOf(expired, NOW)
    expect(at).toBe("2026-12-01T10:00:00Z")
    expect(planRefusalSentence(at, "UTC")).toBe("The catalog account's plan expired on 1 Dec 2026.")
    expect(planRefusalPhrase(at, "UTC")).toBe("the catalog account's plan expired on 1 Dec 2026")
    // The blocked notice and Test connection (errorVoice), the progress line (phaseText): the same words.
    expect(errorVoice({ code: "plan_expired", expired_at: at }).sentence).toBe(planRefusalSentence(at))
    const blocked = { look: "blocked", phase: null, blocked_code: "plan_required" } as const
    expect(phaseText(blocked, at)).toBe(`Stopped: ${planRefusalPhrase(at)}`)
  })

  it("a plan without API access (or not known to have expired): no date, no code", () => {
    expect(expiredAtOf({ plan_expires_at: "2027-01-01T00:00:00Z" }, NOW)).toBeNull()
    expect(expiredAtOf(null, NOW)).toBeNull()
    expect(planRefusalSentence(null)).toBe("The catalog account's plan has no API access.")
    expect(errorVoice({ code: "plan_required", message: "x" }).sentence).toBe(planRefusalSentence(null))
    expect(phaseText({ look: "blocked", phase: null, blocked_code: "plan_required" })).toBe("Stopped: the catalog account's plan has no API access")
    expect(planRefusalSentence(null)).not.toMatch(/403|plan_required/)
  })
})

describe("the Plan row", () => {
  const when = (iso: string) => iso.slice(0, 10)
  it("shows the plan and its end", () => {
    expect(planRowText(expired, false, when, NOW)).toBe("Ultra · expired 2026-12-01")
    expect(planRowText({ plan: "Ultra", plan_expires_at: "2027-01-01T00:00:00Z" }, false, when, NOW)).toBe("Ultra · until 2027-01-01")
    expect(planRowText({ plan: "Basic", plan_expires_at: null }, false, when, NOW)).toBe("Basic · no expiry")
  })
  it("never an error sentence when /v1/me did not answer (a refused key, a spent quota)", () => {
    expect(planRowText(null, true, when, NOW)).toBe("Not known: the catalog did not tell it.")
    expect(planRowText(null, false, when, NOW)).toBe("—")
  })
})

describe("the Plan row after a refusal (issue 43, review of the admin)", () => {
  const when = (iso: string) => iso.slice(0, 10)
  it("says the plan is not known while the catalog refuses the key, in words, with no code", () => {
    expect(planRowText(null, { code: "invalid_api_key" }, when, NOW)).toBe("Not known while the catalog refuses the key.")
    expect(planRowText(null, { code: "daily_quota_exceeded" }, when, NOW)).toBe("Not known right now: the catalog is limiting requests for this key.")
    expect(planRowText(null, { code: "unreachable" }, when, NOW)).toBe("Not known: the catalog did not tell it.")
    expect(planRowText(null, { code: "invalid_api_key" }, when, NOW)).not.toMatch(/Ultra|invalid_api_key/)
  })
})

describe("a past run's refusal (issue 43, second review)", () => {
  // A run refused with plan_required while the plan was "Basic"; the plan has since expired.
  const run = { error_code: "plan_required", error_message: "Plan has no API access or subscription ended (plan_required, HTTP 403, request_id r1)" }
  it("is told from what the run recorded, not from the account as it is now", () => {
    expect(runErrorSentence(run)).toBe("The catalog account's plan has no API access.")
    expect(runErrorSentence(run)).not.toMatch(/expired on/)
    // The current blocked notice may still tell today's account.
    expect(planRefusalSentence(expiredAtOf(expired, NOW), "UTC")).toBe("The catalog account's plan expired on 1 Dec 2026.")
  })
  it("other errors keep the run's own voice", () => {
    expect(runErrorSentence({ error_code: "invalid_api_key", error_message: "x" })).toBe("The catalog refused this API key.")
    expect(runErrorSentence({ error_code: null, error_message: null })).toBe("The run failed.")
  })
})

describe("one sentence family for a refused plan (issue 43, second review)", () => {
  const blocked = (account: { plan: string; plan_expires_at: string | null } | null) =>
    ({ state: "plan_required", running_run: null, last_run: null, next_run_at: null, account }) as unknown as SyncStatus
  it("the reason Sync now cannot start and the summary's warning say the same words", () => {
    // A "Basic" plan is active, only without API access: never "needs an active plan".
    const basic = blocked({ plan: "Basic", plan_expires_at: null })
    expect(syncStartRefusal(basic)).toBe("The catalog account's plan has no API access: no sync runs until it is renewed and the settings are saved.")
    expect(summaryWarnings(basic, null)[0].text).toBe(syncStartRefusal(basic))
    expect(syncStartRefusal(basic)).toBe(planBlockedText(null))
    expect(syncStartRefusal(basic)!.startsWith(planRefusalSentence(null).slice(0, -1))).toBe(true)
  })
  it("an expired plan: its date, in both", () => {
    const old = blocked({ plan: "Ultra", plan_expires_at: "2026-12-01T10:00:00Z" })
    expect(syncStartRefusal(old)).toBe(planBlockedText("2026-12-01T10:00:00Z"))
    expect(syncStartRefusal(old)).toMatch(/^The catalog account's plan expired on 1 Dec 2026: no sync runs until/)
    expect(summaryWarnings(old, null)[0].text).toBe(syncStartRefusal(old))
  })
  it("no wording outside the family", () => {
    for (const text of [syncStartRefusal(blocked(null)), summaryWarnings(blocked(null), null)[0].text]) expect(text).not.toMatch(/active plan|or has ended/)
  })
})
