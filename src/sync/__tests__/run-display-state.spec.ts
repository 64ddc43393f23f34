import { runDisplayState } from "../run-display-state"
import { progressView } from "../run-progress"

describe("one name and one colour per run state", () => {
  const changed = { created: 1 }
  it("names every state a run can be in", () => {
    const states = [
      runDisplayState({ status: "queued" }),
      runDisplayState({ status: "running" }),
      runDisplayState({ status: "paused" }),
      runDisplayState({ status: "paused", brake_resolution: { action: "confirmed" } }),
      runDisplayState({ status: "paused", brake_resolution: { action: "discarded" } }),
      runDisplayState({ status: "running", progress: { after_brake: "run_p", brake_answer: "discarded" } }),
      runDisplayState({ status: "interrupted" }),
      runDisplayState({ status: "failed" }),
      runDisplayState({ status: "succeeded", ...changed }),
      runDisplayState({ status: "succeeded" }),
    ]
    expect(states.map((s) => [s.state, s.label, s.color, s.moving])).toEqual([
      ["queued", "Queued", "grey", false],
      ["running", "Running", "blue", true],
      ["paused", "Paused: waiting for your answer", "orange", false],
      ["confirmed", "Confirmed by you", "purple", false],
      ["discarded", "Discarded by you", "purple", false],
      ["continuing", "Continuing after your discard", "blue", true],
      ["interrupted", "Interrupted", "orange", false],
      ["failed", "Failed", "red", false],
      ["succeeded", "Succeeded", "green", false],
      ["no_changes", "No changes", "grey", false],
    ])
    // Names are one per state.
    expect(new Set(states.map((s) => s.label)).size).toBe(states.length)
  })

  it("an answered pause is no longer paused; its run carries the answer while it goes, then ends like any run", () => {
    expect(runDisplayState({ status: "paused", brake_resolution: { action: "discarded", at: "2026-12-06T08:08:00Z" } }).state).toBe("discarded")
    expect(runDisplayState({ status: "running", progress: { after_brake: "run_p", brake_answer: "confirmed" } }).label).toBe("Continuing after your confirm")
    expect(runDisplayState({ status: "succeeded", removed: 3, progress: { after_brake: "run_p", brake_answer: "confirmed" } }).state).toBe("succeeded")
  })

  it("a rejected card or a sweep is a change; a run that only read unchanged cards is not", () => {
    expect(runDisplayState({ status: "succeeded", skipped: 1 }).state).toBe("succeeded")
    expect(runDisplayState({ status: "succeeded", swept: 2 }).state).toBe("succeeded")
    expect(runDisplayState({ status: "succeeded", created: 0, updated: 0 }).state).toBe("no_changes")
  })

  it("the progress view carries the same state, and an answered pause no longer looks paused", () => {
    const now = Date.parse("2026-12-06T09:00:00Z")
    const paused = { id: "run_p", mode: "changes", status: "paused", finished_at: "2026-12-06T08:59:00Z" }
    expect(progressView({ run: paused, blocked: null, now })).toMatchObject({ look: "paused", display: { state: "paused" } })
    expect(progressView({ run: { ...paused, brake_resolution: { action: "discarded" } }, blocked: null, now })).toMatchObject({
      look: "answered",
      display: { state: "discarded", label: "Discarded by you" },
    })
    expect(progressView({ run: { id: "r", mode: "changes", status: "succeeded", items_seen: 0 }, blocked: null, now })?.display.state).toBe("no_changes")
  })
})
