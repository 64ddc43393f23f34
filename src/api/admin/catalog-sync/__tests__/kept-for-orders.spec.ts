// Which kept removals a run's page names: a product row names its run; a size row (recorded
// without a run) belongs to the run that was running when it was kept.
import { keptByRun, keptQuerySchema } from "../kept-for-orders/route"

const run = { id: "run_2", started_at: "2026-11-28T08:00:00.000Z", finished_at: "2026-11-28T08:05:00.000Z" }

describe("kept for open orders, per run", () => {
  it("a product kept names its run", () => {
    expect(keptByRun({ run_id: "run_2", created_at: "2026-11-28T07:00:00.000Z" }, run)).toBe(true)
    expect(keptByRun({ run_id: "run_1", created_at: "2026-11-28T08:01:00.000Z" }, run)).toBe(false)
  })
  it("a size kept (no run recorded) belongs to the run that ran then", () => {
    expect(keptByRun({ run_id: null, created_at: "2026-11-28T08:01:00.000Z" }, run)).toBe(true)
    expect(keptByRun({ run_id: null, created_at: "2026-11-28T08:06:00.000Z" }, run)).toBe(false)
    expect(keptByRun({ run_id: null, created_at: "2026-11-28T07:59:59.000Z" }, run)).toBe(false)
    // A run still going takes every size kept since it started.
    expect(keptByRun({ run_id: null, created_at: "2026-11-28T09:00:00.000Z" }, { ...run, finished_at: null })).toBe(true)
  })
  it("refuses unknown query fields and an empty run id", () => {
    expect(keptQuerySchema.safeParse({ run_id: "" }).success).toBe(false)
    expect(keptQuerySchema.safeParse({ bogus: "1" }).success).toBe(false)
    expect(keptQuerySchema.safeParse({}).success).toBe(true)
  })
})
