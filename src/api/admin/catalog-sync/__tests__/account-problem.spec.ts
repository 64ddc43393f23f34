// Test connection and Save refuse an account whose plan has expired: /v1/me answers 200 for it,
// while every sync request would get 403 plan_required.
import { accountProblem } from "../test-connection/account-problem"

describe("accountProblem", () => {
  const now = new Date("2026-11-23T12:00:00Z")
  it("an expired plan is plan_expired with its date, in words and as expired_at", () => {
    expect(accountProblem({ plan_expires_at: "2020-01-01T00:00:00Z" }, now)).toEqual({
      code: "plan_expired",
      message: "The catalog account's plan expired on 2020-01-01. Syncs are refused (403) until it is renewed.",
      request_id: null,
      expired_at: "2020-01-01T00:00:00.000Z",
    })
  })
  it("the very moment of expiry counts as expired; a second before does not", () => {
    expect(accountProblem({ plan_expires_at: "2026-11-23T12:00:00Z" }, now)?.code).toBe("plan_expired")
    expect(accountProblem({ plan_expires_at: "2026-11-23T12:00:01Z" }, now)).toBeNull()
  })
  it("an unlimited plan or an unreadable date is no problem", () => {
    expect(accountProblem({ plan_expires_at: null }, now)).toBeNull()
    expect(accountProblem({ plan_expires_at: "someday" }, now)).toBeNull()
  })
})
