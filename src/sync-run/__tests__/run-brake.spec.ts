// The brake's judgement of a run's held removals at its end: a pause lists every held id and marks
// them as its own; under the limit nothing is marked and the run applies them.
import { DEFAULT_BRAKE_THRESHOLDS } from "../../pricing/brake"
import { EMPTY_BRAKE_MEMORY, SafetyBrake } from "../../sync/safety-brake"
import { RunBrake } from "../run-brake"
import type { HeldRemovalsOfRun } from "../run-holds"

const ids = (n: number) => Array.from({ length: n }, (_, i) => `c${i + 1}`)

function holdsOf(held: string[]) {
  const calls = { paused: 0 }
  const holds: HeldRemovalsOfRun = {
    sample: async () => held.slice(0, 5).map((catalog_id) => ({ catalog_id, product_id: `p_${catalog_id}` })),
    pause: async () => (calls.paused++, held),
  }
  return { holds, calls }
}

const noPrices = async () => new Map()

describe("RunBrake.judgeHeld", () => {
  it("pauses over the removal limit: every held id, by source, marked as the pause's", async () => {
    // 30 of 100 catalog products (30 %) is more than the default 20 %.
    const brake = new RunBrake(new SafetyBrake(100, 0, DEFAULT_BRAKE_THRESHOLDS, EMPTY_BRAKE_MEMORY), noPrices)
    const { holds, calls } = holdsOf(ids(30))
    const pause = await brake.judgeHeld({ feed: 10, sweep: 15, filter: 5, total: 30 }, holds)
    expect(pause).not.toBeNull()
    expect(pause!.removal_ids).toEqual(ids(30))
    expect(pause!.held).toEqual({ feed: 10, sweep: 15, filter: 5 })
    expect(pause!.price_drops).toEqual({})
    expect(pause!.reasons.map((r) => r.message).join(" ")).toContain("would remove 30 of 100")
    expect(calls.paused).toBe(1)
  })

  it("lets removals under the limit through without marking any", async () => {
    const brake = new RunBrake(new SafetyBrake(100, 0, DEFAULT_BRAKE_THRESHOLDS, EMPTY_BRAKE_MEMORY), noPrices)
    const { holds, calls } = holdsOf(ids(20))
    expect(await brake.judgeHeld({ feed: 20, sweep: 0, filter: 0, total: 20 }, holds)).toBeNull()
    expect(calls.paused).toBe(0)
  })

  it("hands a page its price read and the brake's check (removals taken out to be held)", async () => {
    const read = jest.fn(async () => new Map())
    const brake = new RunBrake(new SafetyBrake(100, 0, DEFAULT_BRAKE_THRESHOLDS, EMPTY_BRAKE_MEMORY), read)
    const forPage = brake.forPage()
    await forPage.read(["c1"])
    expect(read).toHaveBeenCalledWith(["c1"])
    const row = {
      id: "m1",
      catalog_id: "c1",
      product_id: "p1",
      variant_ids: null,
      inventory_item_ids: null,
      fingerprint: null,
      stock_fingerprint: null,
      sync_version: 1,
      status: "active",
    }
    const checked = forPage.check({ create: [], update: [], stockOnly: [], unchanged: [], remove: [row], rejected: [] } as never, new Map())
    expect(checked.held?.map((r) => r.catalog_id)).toEqual(["c1"])
    expect(checked.plan?.remove).toEqual([])
  })
})
