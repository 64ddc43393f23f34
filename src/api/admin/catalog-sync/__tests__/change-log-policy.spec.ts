import { addOmitted, MAX_ROWS_FULL_PASS, rowCap, selectRowsToStore, type ChangeRow } from "../../../../sync/change-log-policy"
import { changesQuerySchema, likePattern } from "../runs/[id]/changes/route"

const rows = (n: number, row: ChangeRow): ChangeRow[] => Array.from({ length: n }, () => ({ ...row }))

describe("change-log size policy", () => {
  it("a 10,000-product full pass stores 2,000 rows and counts the rest by kind", () => {
    let stored = 0
    let omitted = {}
    // 50 pages of 200: 150 stock-only updates, 40 created, 8 repriced, 2 removed a page.
    for (let page = 0; page < 50; page++) {
      const pageRows = [
        ...rows(150, { kind: "updated", stock_changed: true }),
        ...rows(40, { kind: "created" }),
        ...rows(8, { kind: "updated", price_changed: true }),
        ...rows(2, { kind: "removed" }),
      ]
      const { store, omitted: o } = selectRowsToStore(pageRows, stored, rowCap("full"))
      stored += store.length
      omitted = addOmitted(omitted, o)
    }
    expect(stored).toBe(MAX_ROWS_FULL_PASS)
    const omittedTotal = Object.values(omitted as Record<string, number>).reduce((a, b) => a + b, 0)
    expect(stored + omittedTotal).toBe(10_000)
  })
  it("when a page does not fit, removals and repricing are kept before new products and stock-only updates", () => {
    const page: ChangeRow[] = [
      ...rows(5, { kind: "updated", stock_changed: true }),
      ...rows(5, { kind: "created" }),
      { kind: "updated", price_changed: true },
      { kind: "removed" },
      { kind: "rejected" },
    ]
    const { store, omitted } = selectRowsToStore(page, MAX_ROWS_FULL_PASS - 4, MAX_ROWS_FULL_PASS)
    expect(store.map((r) => r.kind)).toEqual(["created", "updated", "removed", "rejected"])
    expect(store[1].price_changed).toBe(true)
    expect(omitted).toEqual({ updated: 5, created: 4 })
  })
  it("stores nothing once the cap is reached, and everything under it", () => {
    expect(selectRowsToStore(rows(3, { kind: "created" }), 2000, 2000).store).toHaveLength(0)
    expect(selectRowsToStore(rows(3, { kind: "created" }), 0, 2000).store).toHaveLength(3)
  })
})

describe("GET /runs/:id/changes query", () => {
  it("accepts kind, q, limit and offset", () => {
    expect(changesQuerySchema.parse({ kind: "updated", q: " sneaker ", limit: "20", offset: "40" })).toEqual({
      kind: "updated",
      q: "sneaker",
      limit: 20,
      offset: 40,
    })
  })
  it("refuses an unknown kind, a limit out of range and an unknown parameter, naming the field", () => {
    const bad = (query: Record<string, string>) => changesQuerySchema.safeParse(query).error!.issues[0]
    expect(bad({ kind: "exploded" }).path).toEqual(["kind"])
    expect(bad({ limit: "500" }).path).toEqual(["limit"])
    expect(bad({ sort: "x" }).code).toBe("unrecognized_keys")
  })
  it("escapes LIKE wildcards in the search text", () => {
    expect(likePattern("50%_off")).toBe("%50\\%\\_off%")
  })
})
