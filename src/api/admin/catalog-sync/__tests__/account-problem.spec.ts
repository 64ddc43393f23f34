// Test connection and Save refuse an account that cannot sync although /v1/me answers 200 for it:
// an expired plan, or a plan without API access (the API needs the Ultra plan), while every sync
// request would get 403 plan_required.
import { accountProblem } from "../test-connection/account-problem"

describe("accountProblem", () => {
  const now = new Date("2026-11-23T12:00:00Z")
  const ultra = (plan_expires_at: string | null) => ({ plan: "Ultra", plan_expires_at })
  it("an expired plan is plan_expired with its date, in words and as expired_at", () => {
    expect(accountProblem(ultra("2020-01-01T00:00:00Z"), now)).toEqual({
      code: "plan_expired",
      message: "The catalog account's plan expired on 1 Jan 2020. Syncs are refused until it is renewed.",
      request_id: null,
      expired_at: "2020-01-01T00:00:00.000Z",
    })
  })
  it("the very moment of expiry counts as expired; a second before does not", () => {
    expect(accountProblem(ultra("2026-11-23T12:00:00Z"), now)?.code).toBe("plan_expired")
    expect(accountProblem(ultra("2026-11-23T12:00:01Z"), now)).toBeNull()
  })
  it("an unlimited plan or an unreadable date is no problem", () => {
    expect(accountProblem(ultra(null), now)).toBeNull()
    expect(accountProblem(ultra("someday"), now)).toBeNull()
  })
  it("a plan without API access is plan_required, as a run's 403 is, whatever its expiry says", () => {
    const noAccess = { code: "plan_required", message: "The catalog account's plan has no API access.", request_id: null }
    // Issue 43: "Connected · plan Basic · no expiry" while every run failed 403 plan_required.
    expect(accountProblem({ plan: "Basic", plan_expires_at: null }, now)).toEqual(noAccess)
    expect(accountProblem({ plan: "Basic", plan_expires_at: "2030-01-01T00:00:00Z" }, now)).toEqual(noAccess)
    expect(accountProblem({ plan: null, plan_expires_at: null }, now)).toEqual(noAccess)
    expect(accountProblem({ plan: "ultra", plan_expires_at: null }, now)).toBeNull()
    // A longer name with the word Ultra in it is the Ultra plan; a name that only contains the letters is not.
    expect(accountProblem({ plan: "Ultra (annual)", plan_expires_at: null }, now)).toBeNull()
    expect(accountProblem({ plan: "Business Ultra", plan_expires_at: null }, now)).toBeNull()
    expect(accountProblem({ plan: "Ultralight", plan_expires_at: null }, now)).toEqual(noAccess)
  })
})
