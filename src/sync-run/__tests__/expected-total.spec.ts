import type { MedusaContainer } from "@medusajs/framework/types"
import { chooseExpectedTotal, expectedCatalogTotal, isWholePass } from "../expected-total"

describe("chooseExpectedTotal", () => {
  it("prefers the last whole pass's count, then the product map, else unknown", () => {
    expect(chooseExpectedTotal({ items_seen: 1500 }, 1490)).toEqual({ total: 1500, source: "last_full_pass" })
    expect(chooseExpectedTotal(null, 1490)).toEqual({ total: 1490, source: "product_map" })
    expect(chooseExpectedTotal({ items_seen: 0 }, 0)).toEqual({ total: null, source: null })
  })
  it("moves the last full pass's count on by what the runs since created and removed", () => {
    // 1,999 read; since then a run removed 450 (a confirmed brake) and another created 3 and swept 2.
    const since = [
      { created: 3, removed: 0, swept: 2 },
      { created: 0, removed: 450, swept: 0 },
    ]
    expect(chooseExpectedTotal({ items_seen: 1999 }, 1999, since)).toEqual({ total: 1550, source: "last_full_pass" })
    // A pause whose 600 removals the admin discarded: the shop keeps them, the catalog has them no more.
    const discarded = [{ status: "paused", created: 0, removed: 0, swept: 0, brake_resolution: { action: "discarded", removals: 600 } }]
    expect(chooseExpectedTotal({ items_seen: 1999 }, 1999, discarded)).toEqual({ total: 1399, source: "last_full_pass" })
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

describe("expectedCatalogTotal", () => {
  // The first sync succeeded between the status route's read of it as running and this query:
  // it must not be its own last full pass (the admin showed a first sync at 99 %).
  it("never counts the running run itself as the last full pass", async () => {
    const firstSync = { id: "run_first", status: "succeeded", items_seen: 1500, progress: { phase: "done", pass_id: "pass_1" } }
    const service = {
      listCatalogSyncRuns: async () => [firstSync],
      listAndCountCatalogProductMaps: async () => [[], 0] as [unknown[], number],
    }
    const scope = { resolve: () => service } as unknown as MedusaContainer
    expect(await expectedCatalogTotal(scope, new Date(), "run_first")).toEqual({ total: null, source: null })
    expect(await expectedCatalogTotal(scope, new Date(), "run_second")).toEqual({ total: 1500, source: "last_full_pass" })
  })
})
