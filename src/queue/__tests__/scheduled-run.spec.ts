// A scheduled job and a "Sync now" fired at the same moment start one run, not two: the
// scheduled job's run is created under the enqueue mutex (real Redis on 127.0.0.1, fake service).
import { randomUUID } from "node:crypto"
import type { RunLivenessLike } from "../run-liveness"
import { fakeRunUpdates, queueTestbed } from "./queue-testbed"

jest.setTimeout(20_000)

function fakeService() {
  const runs = new Map<string, any>()
  let n = 0
  return {
    runs,
    listCatalogSyncRuns: async (filters: any) => [...runs.values()].filter((r) => !filters.status || filters.status.includes(r.status)).map((r) => ({ ...r })),
    retrieveCatalogSyncRun: async (id: string) => ({ ...runs.get(id) }),
    // Slow inserts widen the window a check-then-create without the mutex would lose.
    createCatalogSyncRuns: async (data: any) => {
      await new Promise((r) => setTimeout(r, 50))
      const row = { id: `run_${++n}`, error_code: null, error_message: null, created_at: new Date(), ...data }
      runs.set(row.id, row)
      return { ...row }
    },
    updateCatalogSyncRuns: fakeRunUpdates(runs),
  }
}

describe("CatalogSyncQueue.createScheduledRun", () => {
  const testbed = queueTestbed("scheduled-run-test")
  const liveness: RunLivenessLike = { holder: async () => null, acquire: async () => ({ taken: true }) }

  it("creates no run while another is alive, and one enqueue plus one scheduled job make one run", async () => {
    const service = fakeService()
    const queue = testbed.queueFor(`mcs-unit-sched-${randomUUID()}`, service, liveness)
    // The scheduler's job, as BullMQ holds it while the worker creates its run.
    await queue.queue.add("scheduled", { mode: "changes", trigger: "schedule" }, { jobId: "sched-1", delay: 60_000 })
    const [manual, scheduled] = await Promise.all([
      queue.enqueueRun({ mode: "full", trigger: "manual" }),
      queue.createScheduledRun({ mode: "changes", jobId: "sched-1" }),
    ])
    const created = [...service.runs.values()]
    expect(created).toHaveLength(1)
    expect(created[0].status).toBe("queued")
    if (scheduled) expect(manual).toMatchObject({ run: { id: scheduled.id }, alreadyRunning: true })
    else expect(manual).toMatchObject({ run: { id: created[0].id, trigger: "manual" }, alreadyRunning: false })
  })
})
