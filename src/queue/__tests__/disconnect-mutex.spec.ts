// A disconnect and a starting run never overlap: the run reads its settings under the enqueue
// mutex once it holds the run lock, and the disconnect removes the key under the same mutex only
// while no run holds that lock (real Redis on 127.0.0.1, fake service and run lock).
import { randomUUID } from "node:crypto"
import type { RunLivenessLike } from "../run-liveness"
import { fakeRunUpdates, queueTestbed } from "./queue-testbed"

jest.setTimeout(20_000)

function fakeService() {
  const runs = new Map<string, any>()
  const settings = { apiKey: "k" as string | null }
  return {
    runs,
    settings,
    // Slow reads widen the window a read outside the mutex would lose.
    getEffectiveSettings: async () => {
      const read = { ...settings }
      await new Promise((r) => setTimeout(r, 100))
      return read
    },
    listCatalogSyncRuns: async (filters: any) => [...runs.values()].filter((r) => !filters.status || filters.status.includes(r.status)).map((r) => ({ ...r })),
    retrieveCatalogSyncRun: async (id: string) => ({ ...runs.get(id) }),
    updateCatalogSyncRuns: fakeRunUpdates(runs),
  }
}

describe("CatalogSyncQueue: disconnect against a starting run", () => {
  const testbed = queueTestbed("disconnect-mutex-test")

  it("refuses while a run holds the run lock, and removes the key otherwise", async () => {
    const service = fakeService()
    let held: string | null = "run_1"
    const liveness: RunLivenessLike = { holder: async () => held, acquire: async () => ({ taken: true }) }
    const queue = testbed.queueFor(`mcs-unit-disc-${randomUUID()}`, service, liveness)
    const remove = jest.fn(async () => {
      service.settings.apiKey = null
      return "removed"
    })
    expect(await queue.whileNoRunHoldsTheLock(remove)).toEqual({ running_run_id: "run_1" })
    expect(remove).not.toHaveBeenCalled()
    held = null
    expect(await queue.whileNoRunHoldsTheLock(remove)).toEqual({ done: "removed" })
    expect(service.settings.apiKey).toBeNull()
  })

  it("a run that reads its settings as the key is removed sees either the key with the disconnect refused, or no key", async () => {
    for (let round = 0; round < 6; round++) {
      const service = fakeService()
      let held: string | null = null
      const liveness: RunLivenessLike = { holder: async () => held, acquire: async () => ({ taken: true }) }
      const queue = testbed.queueFor(`mcs-unit-disc-${randomUUID()}`, service, liveness)
      // The run takes its lock (as the worker does), then reads; the disconnect comes in between or around.
      const startRun = async () => {
        await new Promise((r) => setTimeout(r, round * 20))
        held = "run_1"
        return queue.settingsForStartingRun()
      }
      const disconnect = () =>
        queue.whileNoRunHoldsTheLock(async () => {
          // A slow save: the run's lock and read land while the key is being removed.
          await new Promise((r) => setTimeout(r, 60))
          service.settings.apiKey = null
        })
      const [read, outcome] = await Promise.all([startRun(), disconnect()])
      if ("running_run_id" in outcome) {
        expect(service.settings.apiKey).toBe("k")
      } else {
        expect(read.apiKey).toBeNull()
      }
    }
  })
})
