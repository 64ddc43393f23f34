import { quotaToday } from "../../../sync/requests-today"
import { quotaLine } from "../quota-bar"

const plan = (requestsPerDay: number, quotaEnforced: boolean | null = false, stale = false) => ({ requestsPerDay, requestsPerMinute: 60, quotaEnforced, stale })

describe("quotaLine (Requests today)", () => {
  it("a current plan: used of the limit, the percent with a space", () => {
    const line = quotaLine(quotaToday({ plan: plan(10_000, true), remaining: 9_990, refusedToday: false }))
    expect(line).toEqual({ kind: "bar", used: 10, limit: 10_000, percent: 0.1, color: "green", label: "10 of 10,000 (0.1 %)" })
    // Moved from progress.spec's requestsTodayBar, with the admin's "0.3 %".
    expect(quotaLine(quotaToday({ plan: plan(10_000, null), remaining: 9_972, refusedToday: false }))).toEqual({
      kind: "bar",
      used: 28,
      limit: 10_000,
      percent: 0.3,
      color: "green",
      label: "28 of 10,000 (0.3 %)",
    })
    expect(quotaLine(quotaToday({ plan: plan(10_000, true), remaining: 2_400, refusedToday: false }))).toMatchObject({ color: "orange" })
    expect(quotaLine(quotaToday({ plan: plan(10_000, true), remaining: 1_000, refusedToday: false }))).toMatchObject({ color: "red" })
  })

  it("says not enforced only when a current /v1/me said so, never when it is not known", () => {
    expect(quotaLine(quotaToday({ plan: plan(36, false), remaining: 4, refusedToday: false }))).toMatchObject({ label: "32 of 36 (88.9 %) · not enforced" })
    expect(quotaLine(quotaToday({ plan: plan(36, null), remaining: 4, refusedToday: false }))).toMatchObject({ label: "32 of 36 (88.9 %)" })
  })

  it("a limit the catalog contradicted since /v1/me told it is not shown: no old 'of 10,000'", () => {
    const line = quotaLine(quotaToday({ plan: plan(10_000, false, true), remaining: 4, refusedToday: false }))
    expect(line).toEqual({ kind: "text", text: "4 left today; the daily limit is not known until the catalog tells the plan again." })
  })

  it("refused today for the quota: used up and enforced, never '36 of 36 · not enforced' from an old plan", () => {
    // The limiter marks the plan stale on the refusal (a lowered limit may be why).
    const line = quotaLine(quotaToday({ plan: plan(36, false, true), remaining: 0, refusedToday: true }))
    expect(line).toEqual({ kind: "spent", percent: 100, color: "red", label: "Used up today: the catalog refuses requests until its reset at 00:00 UTC." })
    // A current plan read after the refusal: its figures, without "not enforced".
    expect(quotaLine(quotaToday({ plan: plan(33, false), remaining: 0, refusedToday: true }))).toMatchObject({ label: "33 of 33 (100 %)" })
  })

  it("a refused key: no figures for it", () => {
    expect(quotaLine(quotaToday({ plan: plan(36, true), remaining: 0, refusedToday: false }), "key_invalid")).toEqual({
      kind: "text",
      text: "Not known while the catalog refuses the key.",
    })
    expect(quotaLine(null)).toEqual({ kind: "text", text: "Unknown until the catalog answers." })
  })
})
