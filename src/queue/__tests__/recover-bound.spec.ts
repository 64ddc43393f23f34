// CatalogSyncQueue.recover / resumeRun against the real Redis on 127.0.0.1 with a fake module
// service and run lock: interrupted work that makes progress is resumed at once every time; a
// loop of resumes that never moves the stored cursor backs off, then stops with a clear code.
import { randomUUID } from "node:crypto"
import { FREE_STALLED_RESUMES, MAX_STALLED_RESUMES, RESUME_STALLED_CODE, STALLED_RESUME_BACKOFF_MS } from "../resume-bound"
import type { RunLivenessLike } from "../run-liveness"
import { fakeRunUpdates, queueTestbed } from "./queue-testbed"

jest.setTimeout(20_000)

function fakeService() {
  let clock = Date.parse("2026-01-01T00:00:00Z")
  let seq = 0
  const runs = new Map<string, any>()
  const state = { id: "state_1", phase: "full_export", cursor: "c0" as string | null, full_pass_id: "pass_1" as string | null }
  const create = (data: any) => {
    const row = {
      id: `run_${++seq}`,
      error_code: null,
      error_message: null,
      finished_at: null,
      job_id: null,
      progress: null,
      ...data,
      created_at: new Date(clock++),
    }
    runs.set(row.id, row)
    return { ...row }
  }
  const service = {
    runs,
    state,
    create,
    getState: async () => ({ ...state }),
    createCatalogSyncRuns: async (data: any) => create(data),
    retrieveCatalogSyncRun: async (id: string) => ({ ...runs.get(id) }),
    listCatalogSyncRuns: async (filters: any, config: any = {}) => {
      let rows = [...runs.values()]
      if (filters.status) rows = rows.filter((r) => filters.status.includes(r.status))
      if (filters.created_at?.$gt) rows = rows.filter((r) => r.created_at > new Date(filters.created_at.$gt))
      if (filters.id?.$ne) rows = rows.filter((r) => r.id !== filters.id.$ne)
      rows.sort((a, b) => a.created_at - b.created_at)
      if (config.order?.created_at === "DESC") rows.reverse()
      return rows.slice(0, config.take ?? rows.length).map((r) => ({ ...r }))
    },
    updateCatalogSyncRuns: fakeRunUpdates(runs),
  }
  return service
}

describe("CatalogSyncQueue: the bound on resuming interrupted work", () => {
  const prefix = `mcs-unit-bound-${randomUUID()}`
  const testbed = queueTestbed("recover-bound-test")

  function setup() {
    const service = fakeService()
    const liveness: RunLivenessLike = { holder: async () => null, acquire: async () => ({ taken: true }) }
    return { service, queue: testbed.queueFor(`${prefix}-${testbed.count()}`, service, liveness) }
  }

  /** The run dies (its process is killed, or its lock connection refused) `agoMs` ago. */
  function dies(service: ReturnType<typeof fakeService>, id: string, agoMs = 0) {
    Object.assign(service.runs.get(id), {
      status: "interrupted",
      error_code: "process_stopped",
      error_message: "The process stopped",
      finished_at: new Date(Date.now() - agoMs),
    })
  }

  it("crashes that move the cursor are resumed at once, any number of times", async () => {
    const { service, queue } = setup()
    let run = service.create({ trigger: "manual", mode: "full", status: "running", progress: { phase: "full_export", pass_id: "pass_1" } })
    for (let i = 1; i <= MAX_STALLED_RESUMES * 3; i++) {
      service.state.cursor = `c${i}` // the run committed a page before dying
      dies(service, run.id)
      const next = await queue.recover()
      expect(next).toMatchObject({
        trigger: "retry",
        mode: "full",
        progress: { pass_id: "pass_1", resume_of: run.id, stalled_resumes: 0, resume_from: { cursor: `c${i}` } },
      })
      run = next!
    }
  })

  it("a loop without progress backs off, then is left interrupted with resume_stalled, which recover and pendingResume leave alone", async () => {
    const { service, queue } = setup()
    let run = service.create({ trigger: "manual", mode: "full", status: "running", progress: { phase: "full_export", pass_id: "pass_1" } })
    service.state.cursor = "c7"
    dies(service, run.id)
    // The first resume, then FREE_STALLED_RESUMES resumes that died where they started: all at once.
    for (let stalled = 0; stalled <= FREE_STALLED_RESUMES; stalled++) {
      const next = await queue.recover()
      expect(next).toMatchObject({ trigger: "retry", progress: { pass_id: "pass_1", stalled_resumes: stalled, resume_from: { cursor: "c7", pass: "pass_1" } } })
      run = next!
      dies(service, run.id)
    }
    // Then with backoff: nothing while it lasts, the work still shown pending ("resuming").
    for (let stalled = FREE_STALLED_RESUMES + 1; stalled < MAX_STALLED_RESUMES; stalled++) {
      const backoff = STALLED_RESUME_BACKOFF_MS * 2 ** (stalled - FREE_STALLED_RESUMES - 1)
      dies(service, run.id, backoff - 5_000)
      expect(await queue.recover()).toBeNull()
      expect(await queue.resumeRun(service.runs.get(run.id), "job_x")).toBeNull() // a job handed out again is bounded too
      expect((await queue.pendingResume())?.id).toBe(run.id)
      dies(service, run.id, backoff + 1_000)
      const next = await queue.recover()
      expect(next).toMatchObject({ trigger: "retry", progress: { stalled_resumes: stalled } })
      run = next!
      dies(service, run.id)
    }
    // The last one without progress: no new run, now or ever, until a new run starts the work.
    const runsBefore = service.runs.size
    expect(await queue.recover()).toBeNull()
    expect(service.runs.get(run.id)).toMatchObject({ status: "interrupted", error_code: RESUME_STALLED_CODE })
    expect(service.runs.get(run.id).error_message).toMatch(/without storing a new cursor.*process_stopped/)
    service.runs.get(run.id).finished_at = new Date(Date.now() - 86_400_000)
    expect(await queue.recover()).toBeNull()
    expect(await queue.resumeRun(service.runs.get(run.id), "job_y")).toBeNull()
    expect(await queue.pendingResume()).toBeNull()
    expect(service.runs.size).toBe(runsBefore)

    // "Sync now" starts the work again, and its own crashes are resumed at once.
    const manual = await queue.enqueueRun({ mode: "changes", trigger: "manual" })
    expect(manual.alreadyRunning).toBe(false)
    dies(service, manual.run.id)
    expect(await queue.recover()).toMatchObject({ trigger: "retry", progress: { stalled_resumes: 0, resume_from: { cursor: "c7" } } })
  })
})
