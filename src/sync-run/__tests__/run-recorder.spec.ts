// A written page folded into the run's state: counts, items done, omitted change-log rows, the
// rejected items kept on the row (capped) and every one returned to be logged.
import type { RejectedItem } from "../../catalog-client/items"
import { MAX_REJECTED_ON_RUN } from "../counts"
import { foldFilterWrite, foldPage, foldRemoved } from "../run-recorder"
import { newSyncRunState, progressOf } from "../sync-run-state"

const n = (count: number) => Array(count).fill({})
const plan = (create: number, update: number, stockOnly: number, unchanged: number, remove: number) =>
  ({ create: n(create), update: n(update), stockOnly: n(stockOnly), unchanged: n(unchanged), remove: n(remove), rejected: [] }) as never
const rejected = (id: string | null): RejectedItem => ({ id, reason: "bad", field: "price" }) as RejectedItem

describe("foldPage", () => {
  it("adds the page's counts; items seen include the cards the client rejected", () => {
    const state = newSyncRunState({ runId: "r1", mode: "full" }, new Date(0))
    const page = { items: n(10), rejected: [rejected("x1")], warnings: [rejected("w1")] } as never
    const logged = foldPage(state, page, { plan: plan(3, 2, 1, 3, 1), rejected: [rejected("y1")], changeLog: { stored: 5, omitted: { updated: 2 } } } as never)
    expect(state.counts).toMatchObject({ pages: 1, items_seen: 11, created: 3, updated: 2, stock_only: 1, unchanged: 3, removed: 1, skipped: 2 })
    expect(state.itemsDone).toBe(11)
    expect(progressOf(state)).toMatchObject({ items_done: 11, change_log_omitted: { updated: 2 } })
    // Rejected cards first, then the kept ones with a dropped part.
    expect(logged.map((r) => [r.id, r.kept ?? false])).toEqual([
      ["x1", false],
      ["y1", false],
      ["w1", true],
    ])
    expect(state.rejected).toEqual(logged)
  })

  it("keeps at most MAX_REJECTED_ON_RUN items on the run but returns every one to log", () => {
    const state = newSyncRunState({ runId: "r1", mode: "changes" }, new Date(0))
    const many = Array.from({ length: MAX_REJECTED_ON_RUN + 3 }, (_, i) => rejected(`r${i}`))
    const logged = foldPage(
      state,
      { items: [], rejected: many } as never,
      { plan: plan(0, 0, 0, 0, 0), rejected: [], changeLog: { stored: 0, omitted: {} } } as never
    )
    expect(logged).toHaveLength(MAX_REJECTED_ON_RUN + 3)
    expect(state.rejected).toHaveLength(MAX_REJECTED_ON_RUN)
    expect(state.counts.skipped).toBe(MAX_REJECTED_ON_RUN + 3)
  })
})

describe("foldFilterWrite and foldRemoved", () => {
  it("a filter change's cards move neither pages nor items seen", () => {
    const state = newSyncRunState({ runId: "r1", mode: "changes" }, new Date(0))
    foldFilterWrite(state.counts, { plan: plan(2, 1, 1, 4, 0), rejected: [rejected("z")] } as never)
    expect(state.counts).toMatchObject({ pages: 0, items_seen: 0, created: 2, updated: 1, stock_only: 1, unchanged: 4, skipped: 1 })
  })

  it("held removals applied: the feed's and a filter's are removed, the sweep's swept", () => {
    const state = newSyncRunState({ runId: "r1", mode: "full" }, new Date(0))
    foldRemoved(state.counts, { feed: 2, filter: 3, sweep: 7 })
    expect(state.counts).toMatchObject({ removed: 5, swept: 7 })
  })
})

describe("newSyncRunState", () => {
  it("a resumed run keeps the pass it continues and tells its progress it resumed", () => {
    const state = newSyncRunState({ runId: "r2", mode: "full", resume: { passId: "pass_1", bookkeeping: { resume_from: "r1" } } }, new Date(0))
    expect(progressOf(state)).toEqual({
      phase: "starting",
      restarts: 0,
      pass_id: "pass_1",
      items_done: 0,
      items_read: 0,
      reading_since: null,
      resumed: true,
      resume_from: "r1",
    })
    // Once a page is read, whether the catalog said more follow (the progress view's estimate check).
    expect(progressOf({ ...state, moreToRead: true })).toMatchObject({ more_to_read: true })
  })
})
