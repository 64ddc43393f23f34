import { chooseExpectedTotal, isWholePass } from "../expected-total"

describe("chooseExpectedTotal", () => {
  it("prefers the last whole pass's count, then the product map, else unknown", () => {
    expect(chooseExpectedTotal({ items_seen: 1500 }, 1490)).toEqual({ total: 1500, source: "last_full_pass" })
    expect(chooseExpectedTotal(null, 1490)).toEqual({ total: 1490, source: "product_map" })
    expect(chooseExpectedTotal({ items_seen: 0 }, 0)).toEqual({ total: null, source: null })
  })
})

describe("isWholePass", () => {
  it("is a run that worked in a pass from its start, not a resumed one nor a plain changes run", () => {
    expect(isWholePass({ progress: { phase: "done", pass_id: "pass_1" } })).toBe(true)
    expect(isWholePass({ progress: { phase: "done", pass_id: "pass_1", resumed: true } })).toBe(false)
    expect(isWholePass({ progress: { phase: "done", pass_id: null } })).toBe(false)
    expect(isWholePass({ progress: null })).toBe(false)
  })
})
