import { brakeAnswerText, humanize, nextRunText, phaseLabel, planExpiry, runBadge, stateBadge, statusPollMs, syncStartRefusal, triggerLabel } from "../status"
import type { AccountInfo } from "../types"

const account = (requestsToday: number, perDay = 10000): AccountInfo => ({
  plan: "Ultra",
  plan_expires_at: null,
  limits: { requests_per_minute: 60, requests_per_day: perDay, page_size_max: 200, stock_batch_max: 200, max_concurrent: 3 },
  usage: { requests_today: requestsToday, quota_enforced: false },
})

describe("badges", () => {
  it("maps every sync state to a label and colour", () => {
    expect(stateBadge("idle")).toEqual({ label: "Idle", color: "green" })
    expect(stateBadge("running")).toEqual({ label: "Running", color: "blue" })
    expect(stateBadge("resuming")).toEqual({ label: "Resuming", color: "orange" })
    expect(stateBadge("failed")).toEqual({ label: "Failed", color: "red" })
    expect(stateBadge("key_invalid")).toEqual({ label: "Key refused", color: "red" })
    expect(stateBadge("plan_required")).toEqual({ label: "Plan required", color: "orange" })
    expect(stateBadge("not_configured").color).toBe("grey")
    expect(stateBadge("something_new")).toEqual({ label: "Something new", color: "grey" })
    expect(stateBadge(undefined).label).toBe("Unknown")
  })
  it("maps run statuses", () => {
    expect(runBadge({ status: "succeeded", updated: 1 })).toEqual({ label: "Succeeded", color: "green" })
    expect(runBadge({ status: "succeeded" })).toEqual({ label: "No changes", color: "grey" })
    expect(runBadge({ status: "failed" }).color).toBe("red")
    expect(runBadge({ status: "interrupted" }).color).toBe("orange")
    expect(runBadge({ status: "queued" }).color).toBe("grey")
    // A run the safety brake paused is not waiting to start: it waits for the admin, until answered.
    expect(runBadge({ status: "paused" })).toEqual({ label: "Paused: waiting for your answer", color: "orange" })
    expect(runBadge({ status: "paused", brake_resolution: { action: "discarded" } })).toEqual({ label: "Discarded by you", color: "purple" })
    expect(phaseLabel("paused")).toBe("Paused by the safety brake")
  })
  it("names triggers and phases", () => {
    expect(triggerLabel("schedule")).toBe("Scheduled")
    expect(triggerLabel("settings")).toBe("Settings change")
    expect(triggerLabel(null)).toBe("—")
    // The run carrying out an answer says so while queued and after it ran (its progress keeps after_brake).
    expect(triggerLabel("retry", { progress: { after_brake: "run_1", brake_answer: "discarded", phase: "done" } })).toBe("After your discard")
    expect(triggerLabel("retry", { progress: { phase: "done" } })).toBe("Retry")
    expect(phaseLabel("full_export")).toBe("Full export")
    expect(phaseLabel("changes")).toBe("Changes feed")
    expect(phaseLabel("starting")).toBe("Starting")
    expect(phaseLabel("sweep")).toBe("Sweep")
    expect(humanize("daily_quota-exceeded")).toBe("Daily quota exceeded")
  })
})

describe("planExpiry", () => {
  const now = Date.parse("2026-11-21T05:00:00.000Z")
  it("classifies the subscription end", () => {
    expect(planExpiry(null, now)).toBe("unlimited")
    expect(planExpiry("2026-11-20T00:00:00.000Z", now)).toBe("expired")
    expect(planExpiry("2026-11-25T00:00:00.000Z", now)).toBe("expiring")
    expect(planExpiry("2027-01-01T00:00:00.000Z", now)).toBe("active")
  })
})

describe("statusPollMs", () => {
  it("polls fast while a run goes", () => {
    expect(statusPollMs({ state: "running", running_run: null })).toBe(2000)
    expect(statusPollMs({ state: "resuming", running_run: null })).toBe(2000)
    expect(statusPollMs({ state: "idle", running_run: null })).toBe(15000)
    expect(statusPollMs(undefined)).toBe(15000)
  })
})

describe("runs around the safety brake", () => {
  it("a run that carries out an answer says so, not 'Retry'; an answered pause says the answer", () => {
    expect(triggerLabel("retry", { progress: { after_brake: "csrun_1", brake_answer: "confirmed" } })).toBe("After your confirm")
    expect(triggerLabel("retry", { progress: { after_brake: "csrun_1", brake_answer: "discarded" } })).toBe("After your discard")
    expect(triggerLabel("retry", { progress: {} })).toBe("Retry")
    expect(runBadge({ status: "paused", brake_resolution: { action: "discarded" } }).label).toBe("Discarded by you")
    expect(runBadge({ status: "paused", brake_resolution: null }).label).toBe("Paused: waiting for your answer")
    expect(brakeAnswerText({ action: "confirmed", user_id: "user_1", at: "2026-11-28T05:10:00Z" }, "ann@shop.ua", () => "28 Nov, 05:10")).toBe(
      "Confirmed by ann@shop.ua, 28 Nov, 05:10"
    )
    expect(brakeAnswerText({ action: "discarded", user_id: "user_1" }, null, String)).toBe("Discarded by user user_1")
    expect(brakeAnswerText(null, null, String)).toBeNull()
  })
})

describe("starting a run and the next run", () => {
  it("refuses Sync now with the reason while the key is refused or a run waits for an answer", () => {
    expect(syncStartRefusal({ state: "idle" })).toBeNull()
    expect(syncStartRefusal({ state: "running" })).toBeNull()
    expect(syncStartRefusal({ state: "paused" })).toMatch(/waiting for your answer/)
    expect(syncStartRefusal({ state: "key_invalid" })).toMatch(/refused the API key/)
    expect(syncStartRefusal({ state: "plan_required" })).toMatch(/plan/)
  })
  it("shows no next run time while a run is paused", () => {
    const at = "2026-11-23T10:09:00Z"
    expect(nextRunText({ state: "paused", next_run_at: at }, () => "in 9 min")).toBe("After your answer to the paused run")
    expect(nextRunText({ state: "idle", next_run_at: at }, () => "in 9 min")).toBe("in 9 min")
    expect(nextRunText({ state: "idle", next_run_at: null }, () => "in 9 min")).toBe("—")
  })
})
