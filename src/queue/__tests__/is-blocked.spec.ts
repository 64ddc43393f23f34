import { isBlocked } from "../types"

describe("isBlocked: a refused key or plan, by settings revision", () => {
  it("holds for the revision it was found with, not for a later one (a save of another key or address)", () => {
    expect(isBlocked({ blocked_code: "plan_required", blocked_revision: 4 }, { revision: 4 })).toBe(true)
    expect(isBlocked({ blocked_code: "plan_required", blocked_revision: 4 }, { revision: 5 })).toBe(false)
  })
  it("holds for every revision while a save that keeps it lands (blocked_revision null), so no scheduled run between the save's writes asks the catalog", () => {
    expect(isBlocked({ blocked_code: "invalid_api_key", blocked_revision: null }, { revision: 4 })).toBe(true)
    expect(isBlocked({ blocked_code: "invalid_api_key", blocked_revision: null }, { revision: 5 })).toBe(true)
  })
  it("is not blocked without a code", () => {
    expect(isBlocked({ blocked_code: null, blocked_revision: null }, { revision: 1 })).toBe(false)
    expect(isBlocked({ blocked_code: null, blocked_revision: 1 }, { revision: 1 })).toBe(false)
  })
})
