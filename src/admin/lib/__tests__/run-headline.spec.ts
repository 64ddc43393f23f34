import { runHeadline, runSubtitle } from "../run-headline"
import { runFixture } from "./run-fixture"

const run = runFixture

describe("the run page's header", () => {
  it("names the run: mode, trigger, when it started", () => {
    expect(runSubtitle(run({}), (iso) => iso.slice(11, 16))).toBe("Changes · Scheduled · started 08:00")
    expect(runSubtitle(run({ mode: "full", trigger: "manual", started_at: null, created_at: null }), (iso) => iso)).toBe("Full resync · Manual")
  })
  it("says in one line what an ended run did or why it stopped", () => {
    expect(runHeadline(run({ created: 3, updated: 12, swept: 2 }))).toBe("3 created · 12 updated · 2 removed")
    expect(runHeadline(run({}))).toBe("No product changed")
    expect(runHeadline(run({ status: "interrupted", updated: 40 }))).toBe("Interrupted after 40 updated")
    expect(runHeadline(run({ status: "interrupted" }))).toBe("Interrupted before it changed a product")
    // A failure's error, a pause's outcome and a live run's progress have their own blocks in the header.
    expect(runHeadline(run({ status: "failed", error_code: "invalid_api_key" }))).toBeNull()
    expect(runHeadline(run({ status: "paused" }))).toBeNull()
    expect(runHeadline(run({ status: "running" }))).toBeNull()
  })
})
