import { OrderedCursor, pageSlot, type PageSlot } from "../ordered-cursor"

const slot = (ids: string[], exclusive = false): PageSlot => ({ ids: new Set(ids), exclusive })

describe("OrderedCursor", () => {
  it("releases a page's cursor only once every earlier page committed, in order", () => {
    const pages = new OrderedCursor(4)
    const [a, b, c, d] = [slot(["1"]), slot(["2"]), slot(["3"]), slot(["4"])].map((s) => pages.dispatch(s))
    expect(pages.commit(c)).toEqual([])
    expect(pages.commit(b)).toEqual([])
    expect(pages.commit(a)).toEqual([0, 1, 2])
    expect(pages.commit(d)).toEqual([3])
    expect(pages.open).toBe(0)
  })

  it("bounds the pages not yet released, including committed ones behind a slow page", () => {
    const pages = new OrderedCursor(2)
    const first = pages.dispatch(slot(["1"]))
    const second = pages.dispatch(slot(["2"]))
    expect(pages.mayDispatch(slot(["3"]))).toBe(false)
    expect(pages.commit(second)).toEqual([])
    // The slow first page still holds the window: the second's result waits with it.
    expect(pages.mayDispatch(slot(["3"]))).toBe(false)
    expect(pages.commit(first)).toEqual([0, 1])
    expect(pages.mayDispatch(slot(["3"]))).toBe(true)
  })

  it("holds back a page that shares a catalog id with a page being written, until that one commits", () => {
    const pages = new OrderedCursor(3)
    const first = pages.dispatch(slot(["1", "2"]))
    expect(pages.mayDispatch(slot(["2", "9"]))).toBe(false)
    expect(pages.mayDispatch(slot(["9"]))).toBe(true)
    pages.commit(first)
    expect(pages.mayDispatch(slot(["2", "9"]))).toBe(true)
  })

  it("writes a page that makes shared records alone", () => {
    const pages = new OrderedCursor(3)
    const plain = pages.dispatch(slot(["1"]))
    expect(pages.mayDispatch(slot(["2"], true))).toBe(false)
    pages.commit(plain)
    const exclusive = pages.dispatch(slot(["2"], true))
    expect(pages.mayDispatch(slot(["3"]))).toBe(false)
    expect(pages.commit(exclusive)).toEqual([1])
    expect(pages.mayDispatch(slot(["3"]))).toBe(true)
  })

  it("refuses a dispatch that must wait, and a commit of a page not being written", () => {
    const pages = new OrderedCursor(1)
    const only = pages.dispatch(slot(["1"]))
    expect(() => pages.dispatch(slot(["2"]))).toThrow()
    pages.commit(only)
    expect(() => pages.commit(only)).toThrow()
    expect(() => new OrderedCursor(0)).toThrow()
  })
})

describe("pageSlot", () => {
  const known = {
    categoryIdByCatalogId: new Map([["10", "pcat_10"]]),
    brandIdByCatalogId: new Map([["20", "brand_20"]]),
    brandModelIdByCatalogId: new Map([["30", "model_30"]]),
  }
  const item = (id: string, product: Record<string, unknown>) => ({ id, status: "updated", product })

  it("names the page's ids and writes it alone when a card names a reference the run does not know", () => {
    const plain = pageSlot([item("1", { category_id: "10", brand: { id: "20" }, brand_model: { id: "30" } }), { id: "2", status: "removed" }], known)
    expect([...plain.ids]).toEqual(["1", "2"])
    expect(plain.exclusive).toBe(false)
    expect(pageSlot([item("1", { category_id: "11" })], known).exclusive).toBe(true)
    expect(pageSlot([item("1", { brand: { id: "21" } })], known).exclusive).toBe(true)
    expect(pageSlot([item("1", { brand: { id: "20" }, brand_model: { id: "31" } })], known).exclusive).toBe(true)
  })
})
