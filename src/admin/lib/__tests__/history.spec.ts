import { HISTORY_COUNT_FIELDS, RUN_COUNT_FIELDS, barHeights, quietLabel, quietSpan, shortDay } from "../history"

describe("history helpers", () => {
  it("shows one time for one poll, never a span from a time to itself", () => {
    const time = (iso: string) => iso.slice(11, 16)
    expect(quietSpan("2026-11-23T08:08:00Z", "2026-11-23T08:08:40Z", time)).toBe("08:08")
    expect(quietSpan("2026-11-23T08:08:00Z", "2026-11-23T09:40:00Z", time)).toBe("08:08–09:40")
  })

  it("labels folded polls", () => {
    expect(quietLabel(28)).toBe("28 polls, no changes")
    expect(quietLabel(1440)).toBe("1,440 polls, no changes")
    expect(quietLabel(1)).toBe("1 poll, no changes")
  })
  it("scales bars to the tallest day, keeping small non-zero days visible", () => {
    expect(barHeights([0, 1, 50, 100])).toEqual([0, 4, 50, 100])
    expect(barHeights([0, 0])).toEqual([0, 0])
  })
  it("short day", () => {
    expect(shortDay("2026-11-03")).toBe("3 Nov")
  })
})

describe("a run's counts in the history", () => {
  it('counts "Updated" and "Stock only" apart, as the Last run card and the run page do (SQL: updated 17, stock_only 5)', () => {
    const run = { created: 0, updated: 17, stock_only: 5, unchanged: 300, removed: 1, swept: 2, skipped: 0 }
    expect(HISTORY_COUNT_FIELDS.map((f) => [f.label, f.value(run)])).toEqual([
      ["Created", 0],
      ["Updated", 17],
      ["Stock only", 5],
      ["Removed", 3],
      ["Rejected", 0],
    ])
    // The same names and figures as the Last run card and the run page's grid (RunCounts).
    for (const f of HISTORY_COUNT_FIELDS) expect(RUN_COUNT_FIELDS.find((g) => g.key === f.key)).toBe(f)
  })
})
