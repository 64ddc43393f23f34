// CatalogSyncQueue.interruptDeadRunsAndListLive against the real Redis on 127.0.0.1 with a fake module service
// and run lock: rows that change while it looks are not marked "interrupted".
import { randomUUID } from "node:crypto"
import type { RunLivenessLike } from "../run-liveness"
import { fakeRunUpdates, queueTestbed } from "./queue-testbed"

jest.setTimeout(20_000)

function fakeService(rows: any[]) {
  const runs = new Map<string, any>(rows.map((r) => [r.id, { ...r }]))
  return {
    runs,
    listCatalogSyncRuns: async (filters: any) => [...runs.values()].filter((r) => !filters.status || filters.status.includes(r.status)).map((r) => ({ ...r })),
    retrieveCatalogSyncRun: async (id: string) => ({ ...runs.get(id) }),
    updateCatalogSyncRuns: fakeRunUpdates(runs),
  }
}

describe("CatalogSyncQueue.interruptDeadRunsAndListLive", () => {
  const prefix = `mcs-unit-live-${randomUUID()}`
  const testbed = queueTestbed("live-runs-test")

  function queueWith(service: ReturnType<typeof fakeService>, holder: () => Promise<string | null>) {
    const liveness: RunLivenessLike = { holder, acquire: async () => ({ taken: true }) }
    return testbed.queueFor(prefix, service, liveness)
  }

  it("a run that finishes between the list and the lock check keeps its status", async () => {
    const service = fakeService([{ id: "run_end", status: "running", job_id: "run_end", error_code: null, error_message: null }])
    const queue = queueWith(service, async () => {
      // The run ends right after the list was read: final status first, then the lock goes.
      service.runs.get("run_end").status = "succeeded"
      return null
    })
    expect(await queue.interruptDeadRunsAndListLive()).toEqual([])
    expect(service.runs.get("run_end")).toMatchObject({ status: "succeeded", error_code: null })
  })

  it("a run whose job is added while it looks (job id not yet on the row) is alive", async () => {
    const service = fakeService([{ id: "run_new", status: "queued", job_id: null, error_code: null, error_message: null }])
    const queue = queueWith(service, async () => {
      // What the enqueue does meanwhile: the job (its id is the run id), then the row's job_id.
      await queue.queue.add("run", { runId: "run_new", mode: "changes", trigger: "manual" }, { jobId: "run_new" })
      return null
    })
    expect((await queue.interruptDeadRunsAndListLive()).map((r) => r.id)).toEqual(["run_new"])
    expect(service.runs.get("run_new").status).toBe("queued")
  })

  it("a run being enqueued (its row stored, its job not yet added) is alive to a look from outside the enqueue", async () => {
    const service: any = fakeService([])
    let rowStored!: () => void
    const stored = new Promise<void>((resolve) => (rowStored = resolve))
    let letEnqueueGoOn!: () => void
    const goOn = new Promise<void>((resolve) => (letEnqueueGoOn = resolve))
    service.createCatalogSyncRuns = async (data: any) => {
      const row = { id: `run_${randomUUID()}`, error_code: null, error_message: null, ...data }
      service.runs.set(row.id, row)
      rowStored()
      // The status route's look (the admin's chip polls it) lands here, before the job is added.
      await goOn
      return { ...row }
    }
    const queue = queueWith(service, async () => null)
    const enqueued = queue.enqueueRun({ mode: "full", trigger: "manual" })
    await stored
    const look = queue.interruptDeadRunsAndListLive()
    await new Promise((resolve) => setTimeout(resolve, 200))
    letEnqueueGoOn()
    const { run } = await enqueued
    expect((await look).map((r) => r.id)).toEqual([run.id])
    expect(service.runs.get(run.id)).toMatchObject({ status: "queued", job_id: run.id, error_code: null })
  })

  it("a running row whose lock is free is still marked interrupted", async () => {
    const service = fakeService([{ id: "run_dead", status: "running", job_id: "run_dead", error_code: null, error_message: null }])
    const queue = queueWith(service, async () => null)
    expect(await queue.interruptDeadRunsAndListLive()).toEqual([])
    expect(service.runs.get("run_dead")).toMatchObject({ status: "interrupted", error_code: "process_stopped" })
  })
})
