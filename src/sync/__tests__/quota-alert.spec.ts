// The quota alerts' words come from the one quota answer (requests-today.ts), never from a limit
// or an "enforced" flag an older /v1/me told (issue 43: "9,996 of today's 10,000" while the
// catalog's limit was 36; "not enforced" while it answered 429 daily_quota_exceeded).
import { quotaAlert, quotaPercent } from "../quota-level"
import { quotaToday } from "../requests-today"

const plan = (requestsPerDay: number, quotaEnforced: boolean | null, stale = false) => ({ requestsPerDay, quotaEnforced, stale })

describe("quotaAlert", () => {
  it("over 80 % of a current limit", () => {
    expect(quotaAlert(quotaToday({ plan: plan(36, true), remaining: 4, refusedToday: false }), false)).toEqual({ kind: "quota_high", used: 32, limit: 36 })
    expect(quotaAlert(quotaToday({ plan: plan(36, true), remaining: 20, refusedToday: false }), true)).toBeNull()
  })

  it("never from a limit the catalog contradicted since /v1/me told it", () => {
    // The old plan said 10,000; the catalog's answers disagreed (a lowered quota): no "9,996 of 10,000".
    expect(quotaAlert(quotaToday({ plan: plan(10_000, false, true), remaining: 4, refusedToday: false }), false)).toBeNull()
    expect(quotaAlert(quotaToday({ plan: plan(10_000, false, true), remaining: 4, refusedToday: false }), true)).toBeNull()
  })

  it("spent: enforced on the catalog's refusal, whatever an older /v1/me said", () => {
    expect(quotaAlert(quotaToday({ plan: plan(36, false, true), remaining: 0, refusedToday: true }), false)).toEqual({
      kind: "quota_spent",
      enforced: true,
      passed: false,
    })
    expect(quotaAlert(quotaToday({ plan: plan(36, false), remaining: 0, refusedToday: true }), true)).toEqual({
      kind: "quota_spent",
      enforced: true,
      passed: false,
    })
  })

  it("'not enforced' only after the run went on past zero without a refusal; while it goes, nothing yet", () => {
    const passed = quotaToday({ plan: plan(36, false), remaining: 0, refusedToday: false })
    expect(quotaAlert(passed, false)).toBeNull()
    expect(quotaAlert(passed, true)).toEqual({ kind: "quota_spent", enforced: false, passed: false })
    // Not known (the plan held is stale): the neutral words, at the run's end.
    expect(quotaAlert(quotaToday({ plan: plan(36, false, true), remaining: 0, refusedToday: false }), true)).toEqual({
      kind: "quota_spent",
      enforced: null,
      passed: false,
    })
  })

  it("passed only when the run's client saw a request counted past the quota; at the limit, not (issue 43: 22 of 22)", () => {
    const atZero = quotaToday({ plan: plan(22, false), remaining: 0, refusedToday: false })
    expect(quotaAlert(atZero, true, false)).toEqual({ kind: "quota_spent", enforced: false, passed: false })
    expect(quotaAlert(atZero, true, true)).toEqual({ kind: "quota_spent", enforced: false, passed: true })
  })
})

describe("quotaPercent: one percent for the bell and the sync page's bar", () => {
  it("to one decimal, at most 100", () => {
    expect(quotaPercent(8_640, 10_000)).toBe(86.4)
    expect(quotaPercent(8_100, 10_000)).toBe(81)
    expect(quotaPercent(32, 36)).toBe(88.9)
    expect(quotaPercent(40, 36)).toBe(100)
  })
})
