// The run's pages in flight: taken back in feed order whatever order their writes commit in,
// a failed write surfacing only after the pages before it, a paused page in its place.
import type { ChangesPage } from "../../catalog-client/catalog-client"
import type { PagePlan } from "../../sync/plan-page"
import { emptyCounts } from "../counts"
import type { PageSlot } from "../ordered-cursor"
import { PageWindow, type WrittenPage } from "../page-window"

const slot = (ids: string[], exclusive = false): PageSlot => ({ ids: new Set(ids), exclusive })
const page = (cursor: string): ChangesPage => ({ items: [], rejected: [], nextCursor: cursor, hasMore: true }) as unknown as ChangesPage
const plan = (n: { create?: number; update?: number; stockOnly?: number; remove?: number }): PagePlan =>
  ({
    create: Array(n.create ?? 0).fill({}),
    update: Array(n.update ?? 0).fill({}),
    stockOnly: Array(n.stockOnly ?? 0).fill({}),
    unchanged: [],
    remove: Array(n.remove ?? 0).fill({}),
    rejected: [],
  }) as unknown as PagePlan

/** A write the test settles when it chooses. */
function deferred() {
  let resolve!: (o: WrittenPage) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<WrittenPage>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

const cursorOf = (taken: { page: ChangesPage } | null) => taken?.page.nextCursor ?? null

describe("PageWindow", () => {
  it("takes pages back in feed order when their writes commit out of order", async () => {
    const window = new PageWindow(3)
    const writes = ["a", "b", "c"].map((c, i) => {
      const entry = window.open(page(c), 0, slot([String(i)]))
      const write = deferred()
      window.write(entry, () => write.promise)
      return write
    })
    expect(window.writing).toBe(3)
    expect(window.hasRoom).toBe(false)
    writes[2].resolve({ plan: plan({}) })
    writes[1].resolve({ plan: plan({}) })
    const first = window.take()
    // Nothing is taken back while the first page is still writing.
    await new Promise((r) => setImmediate(r))
    writes[0].resolve({ plan: plan({}) })
    expect(cursorOf(await first)).toBe("a")
    expect(cursorOf(await window.take())).toBe("b")
    expect(cursorOf(await window.take())).toBe("c")
    expect(await window.take()).toBeNull()
    expect(window.idle).toBe(true)
    expect(window.hasRoom).toBe(true)
  })

  it("throws a failed write only once the pages before it are taken back, and never takes back a page after it", async () => {
    const window = new PageWindow(3)
    const [a, b, c] = ["a", "b", "c"].map((cur, i) => {
      const entry = window.open(page(cur), 0, slot([String(i)]))
      const write = deferred()
      window.write(entry, () => write.promise)
      return write
    })
    c.resolve({ plan: plan({}) })
    b.reject(new Error("page b failed"))
    a.resolve({ plan: plan({}) })
    expect(cursorOf(await window.take())).toBe("a")
    expect(window.failed).toBe(true)
    await expect(window.take()).rejects.toThrow("page b failed")
  })

  it("takes a page the brake paused back in its place, after the pages written before it", async () => {
    const window = new PageWindow(2)
    const first = window.open(page("a"), 0, slot(["1"]))
    const write = deferred()
    window.write(first, () => write.promise)
    const paused = window.open(page("b"), 0, slot(["2"]))
    window.settled(paused, { plan: plan({}) })
    write.resolve({ plan: plan({ create: 1 }) })
    const taken = [await window.take(), await window.take()]
    expect(taken.map(cursorOf)).toEqual(["a", "b"])
    expect(taken[1]).toBe(paused)
  })

  it("keeps a page sharing a catalog id with one being written from being dispatched", () => {
    const window = new PageWindow(3)
    window.write(window.open(page("a"), 0, slot(["1", "2"])), () => new Promise(() => undefined))
    expect(window.mayDispatch(slot(["2", "3"]))).toBe(false)
    expect(window.mayDispatch(slot(["3"]))).toBe(true)
  })

  it("settle() waits for every write in progress, failed ones included", async () => {
    const window = new PageWindow(2)
    const done: string[] = []
    const a = deferred()
    const b = deferred()
    window.write(window.open(page("a"), 0, slot(["1"])), () => a.promise.then((o) => (done.push("a"), o)))
    window.write(window.open(page("b"), 0, slot(["2"])), () => b.promise)
    const settled = window.settle().then(() => done.push("settled"))
    b.reject(new Error("b failed"))
    a.resolve({ plan: plan({}) })
    await settled
    expect(done).toEqual(["a", "settled"])
    expect(window.writing).toBe(0)
  })
})
