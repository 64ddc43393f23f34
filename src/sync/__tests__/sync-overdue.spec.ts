import { syncOverdue } from "../sync-overdue"

const every = 10 * 60_000
const last = new Date("2026-12-06T10:00:00Z")
const at = (ms: number) => last.getTime() + ms

describe("syncOverdue", () => {
  it("is overdue only past two poll intervals since the last run", () => {
    const base = { expectedToRun: true, busy: false, lastRunAt: last, pollEveryMs: every }
    expect(syncOverdue({ ...base, now: at(every) })).toEqual({ overdue: false })
    expect(syncOverdue({ ...base, now: at(2 * every) })).toEqual({ overdue: false })
    expect(syncOverdue({ ...base, now: at(2 * every + 1) })).toEqual({ overdue: true, since: last, thresholdMs: 2 * every })
  })

  it("is never overdue while a run is queued, running or paused, nor when the sync is not expected to run", () => {
    const late = { lastRunAt: last, pollEveryMs: every, now: at(10 * every) }
    expect(syncOverdue({ ...late, expectedToRun: true, busy: true })).toEqual({ overdue: false })
    expect(syncOverdue({ ...late, expectedToRun: false, busy: false })).toEqual({ overdue: false })
    expect(syncOverdue({ ...late, expectedToRun: true, busy: false, lastRunAt: null })).toEqual({ overdue: false })
  })
})
