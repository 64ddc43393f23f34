// The worker against the real Redis on 127.0.0.1, with a fake module service: what happens to
// the run lock when a run cannot even build its client.
import { randomUUID } from "node:crypto"
import type { Job } from "bullmq"
import Redis from "ioredis"
import http from "node:http"
import type { AddressInfo } from "node:net"
import { standaloneClientFactory } from "../catalog-client-factory"
import { runRetryDelayMs } from "../catalog-sync-queue"
import { CatalogSyncWorker, TransientRunFailure } from "../catalog-sync-worker"
import { HeapGrowthFlag, SyncHeapGrowth } from "../heap-growth"
import { closeRedis, createRedis } from "../redis"
import type { RunLivenessLike } from "../run-liveness"
import { allowLoopbackCatalog } from "../../__tests__/allow-loopback-catalog"

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379"
jest.setTimeout(20_000)

const pricing = { price_calculation: "max" as const, markup_percent: null, discount_percent: null, old_price_markup_percent: null }

function fakeService(settings: Record<string, unknown>) {
  const runs = new Map<string, any>([["run_1", { id: "run_1", status: "queued", mode: "changes", trigger: "manual", error_code: null }]])
  return {
    runs,
    getEffectiveSettings: async () => settings,
    getState: async () => ({ id: "state_1" }),
    updateState: async () => ({}),
    retrieveCatalogSyncRun: async (id: string) => runs.get(id),
    updateCatalogSyncRuns: async (patch: any) => {
      const row = { ...runs.get(patch.id), ...patch }
      runs.set(patch.id, row)
      return row
    },
    createCatalogSyncRuns: async () => {
      throw new Error("not expected")
    },
  }
}

/** The run lock in memory (run-liveness.spec.ts covers the PostgreSQL one). */
function fakeLiveness(): RunLivenessLike & { held: string | null } {
  const liveness = {
    held: null as string | null,
    holder: async () => liveness.held,
    acquire: async (runId: string) => {
      if (liveness.held) throw new Error("already held")
      liveness.held = runId
      return {
        lease: {
          runId,
          check: async () => undefined,
          updateState: async () => undefined,
          release: async () => {
            if (liveness.held === runId) liveness.held = null
          },
        },
      }
    },
  }
  return liveness
}

describe("CatalogSyncWorker", () => {
  const prefix = `mcs-unit-${randomUUID()}`
  // The scripted catalog listens on loopback, which the plugin refuses unless allowed.
  allowLoopbackCatalog("beforeAll")
  let redis: Redis
  let connection: Redis

  beforeAll(() => {
    redis = new Redis(REDIS_URL)
    connection = createRedis(REDIS_URL, "worker-test")
  })
  afterAll(async () => {
    await closeRedis(redis)
    await closeRedis(connection)
  })

  /** A worker on the test's Redis with fakes for everything else. */
  const newWorker = (service: unknown, liveness: RunLivenessLike, runSync: unknown, queue: Record<string, unknown> = {}, heapGrowth?: SyncHeapGrowth) =>
    new CatalogSyncWorker({
      connection,
      prefix,
      liveness,
      queue: {
        interruptDeadRunsAndListLive: async () => [],
        recover: async () => null,
        settingsForStartingRun: async () => (service as { getEffectiveSettings(): Promise<unknown> }).getEffectiveSettings(),
        ...queue,
      } as any,
      container: {} as any,
      clients: standaloneClientFactory(),
      service: () => service as any,
      runSync: runSync as any,
      logger: { info() {}, warn() {}, error() {} },
      heapGrowth,
    })

  it("releases the run lock when the client cannot be built (e.g. a base URL without scheme)", async () => {
    const service = fakeService({
      baseUrl: "catalog.example.com",
      apiKey: "k",
      apiKeyHash: null,
      pricing,
      enabled: true,
      revision: 1,
    })
    const runSync = jest.fn()
    const liveness = fakeLiveness()
    const worker = newWorker(service, liveness, runSync)
    try {
      const job = {
        id: "run_1",
        data: { runId: "run_1", mode: "changes", trigger: "manual" },
        attemptsMade: 0,
        opts: { attempts: 1 },
        updateData: async () => undefined,
      }
      const result = await worker.process(job as unknown as Job<any>)
      expect(result).toMatchObject({ status: "failed" })
      expect(runSync).not.toHaveBeenCalled()
      expect(service.runs.get("run_1").status).toBe("failed")
      // The run lock is free: the next run is not blocked.
      expect(await liveness.holder()).toBeNull()
    } finally {
      await worker.close()
    }
  })

  it("a run starts with the settings read under the run lock: a key removed after its job fired is never used", async () => {
    const withKey = { baseUrl: "http://127.0.0.1:9", apiKey: "k", apiKeyHash: "kh", pricing, enabled: true, revision: 1 }
    const service = fakeService(withKey)
    const runSync = jest.fn(async () => ({ status: "succeeded" as const }))
    const liveness = fakeLiveness()
    // The job read the settings with the key; a disconnect removed it before the run held its lock.
    const readUnderLock = jest.fn(async () => ({ ...withKey, apiKey: null, apiKeyHash: null }))
    const worker = newWorker(service, liveness, runSync, { settingsForStartingRun: readUnderLock })
    try {
      const job = {
        id: "run_1",
        data: { runId: "run_1", mode: "changes", trigger: "manual" },
        attemptsMade: 0,
        opts: { attempts: 3 },
        updateData: async () => undefined,
      }
      expect(await worker.process(job as unknown as Job<any>)).toEqual({ status: "failed", errorCode: "not_configured" })
      expect(readUnderLock).toHaveBeenCalledTimes(1)
      expect(runSync).not.toHaveBeenCalled()
      expect(service.runs.get("run_1")).toMatchObject({ status: "failed", error_code: "not_configured" })
      expect(await liveness.holder()).toBeNull()
    } finally {
      await worker.close()
    }
  })

  it("holds V8's heap growth for the run, and gives it back when the run ends, succeeded or thrown", async () => {
    const service = fakeService({ baseUrl: "http://127.0.0.1:9", apiKey: "k", apiKeyHash: "kh", pricing, enabled: true, revision: 1 })
    const flags: string[] = []
    const heapGrowth = new SyncHeapGrowth({ percent: 100, flag: new HeapGrowthFlag({ lingerMs: 0, setFlags: (f) => flags.push(f) }) })
    const heldDuringRun: boolean[] = []
    let outcome: "succeed" | "throw" = "succeed"
    const runSync = async () => {
      heldDuringRun.push(heapGrowth.held)
      if (outcome === "throw") throw new Error("boom")
      return { status: "succeeded" as const }
    }
    const worker = newWorker(service, fakeLiveness(), runSync, {}, heapGrowth)
    const job = {
      id: "run_1",
      data: { runId: "run_1", mode: "changes", trigger: "manual" },
      attemptsMade: 0,
      opts: { attempts: 1 },
      updateData: async () => undefined,
    }
    try {
      expect(heapGrowth.held).toBe(false)
      await worker.process(job as unknown as Job<any>)
      await new Promise((r) => setTimeout(r, 20))
      expect(heapGrowth.held).toBe(false)
      outcome = "throw"
      service.runs.set("run_1", { ...service.runs.get("run_1"), status: "queued" })
      await worker.process(job as unknown as Job<any>)
      await new Promise((r) => setTimeout(r, 20))
      expect(heldDuringRun).toEqual([true, true])
      expect(heapGrowth.held).toBe(false)
      expect(flags).toEqual(["--heap-growing-percent=100", "--heap-growing-percent=0", "--heap-growing-percent=100", "--heap-growing-percent=0"])
    } finally {
      await worker.close()
    }
  })

  it("a run failed by a 429 is retried no sooner than its Retry-After", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "3600" })
      res.end(JSON.stringify({ error: { code: "rate_limited", message: "Too many requests" } }))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const service = fakeService({ baseUrl, apiKey: "k", apiKeyHash: "kh", pricing, enabled: true, revision: 1 })
    const liveness = fakeLiveness()
    const runSync = async (_c: unknown, input: { client: any }) => {
      try {
        await input.client.getProduct(1)
        return { status: "succeeded" as const }
      } catch (e: any) {
        return { status: "failed" as const, errorCode: e.code }
      }
    }
    const worker = newWorker(service, liveness, runSync)
    try {
      const job = {
        id: "run_1",
        data: { runId: "run_1", mode: "changes", trigger: "manual" },
        attemptsMade: 0,
        opts: { attempts: 3 },
        updateData: async () => undefined,
      }
      const failure = await worker.process(job as unknown as Job<any>).catch((e) => e)
      expect(failure).toBeInstanceOf(TransientRunFailure)
      expect(failure.errorCode).toBe("rate_limited")
      expect(failure.retryAfterMs).toBeGreaterThan(3500_000)
      expect(runRetryDelayMs(1, failure)).toBeGreaterThan(3500_000)
    } finally {
      await worker.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  describe("retry by failure class (the run's raw code as the catalog client keeps it)", () => {
    const settings = { baseUrl: "http://127.0.0.1:9", apiKey: "k", apiKeyHash: "kh", pricing, enabled: true, revision: 1 }
    const job = (attemptsMade: number) => ({
      id: "run_1",
      data: { runId: "run_1", mode: "changes", trigger: "manual" },
      attemptsMade,
      opts: { attempts: 25 },
      updateData: async () => undefined,
    })
    async function outcome(errorCode: string, attemptsMade = 0, nextRunAt: Date | null = new Date(Date.now() + 3_600_000)) {
      const service = fakeService(settings)
      const worker = newWorker(service, fakeLiveness(), async () => ({ status: "failed" as const, errorCode }), { nextRunAt: async () => nextRunAt })
      try {
        const result = await worker.process(job(attemptsMade) as unknown as Job<any>).catch((e) => e)
        return result instanceof TransientRunFailure ? "retried" : "left"
      } finally {
        await worker.close()
      }
    }

    it.each([
      "ECONNREFUSED",
      "ECONNRESET",
      "ENOTFOUND",
      "EAI_AGAIN",
      "ETIMEDOUT",
      "UND_ERR_CONNECT_TIMEOUT",
      "UND_ERR_HEADERS_TIMEOUT",
      "UND_ERR_BODY_TIMEOUT",
      "ERR_TLS_CERT_ALTNAME_INVALID",
      "network_error",
      "timeout",
      "service_unavailable",
      "rate_limited",
    ])("%s is retried, and again past the first attempts while the retry comes before the next poll", async (code) => {
      expect(await outcome(code)).toBe("retried")
      expect(await outcome(code, 6)).toBe("retried")
      // The next poll comes sooner than the retry would: the poll continues the work.
      expect(await outcome(code, 6, new Date(Date.now() + 1_000))).toBe("left")
    })

    it("a refused key or an invalid request is never retried; an unknown failure a bounded number of times", async () => {
      expect(await outcome("invalid_api_key")).toBe("left")
      expect(await outcome("plan_required")).toBe("left")
      expect(await outcome("validation_error")).toBe("left")
      expect(await outcome("internal_error")).toBe("retried")
      expect(await outcome("internal_error", 2)).toBe("left")
    })
  })

  describe("a job handed out again (BullMQ thought it stalled)", () => {
    const settings = { baseUrl: "http://127.0.0.1:9", apiKey: "k", apiKeyHash: "kh", pricing, enabled: true, revision: 1 }
    const job = (attemptsMade = 0) => ({
      id: "run_1",
      data: { runId: "run_1", mode: "full", trigger: "manual" },
      attemptsMade,
      opts: { attempts: 3 },
      updateData: async () => undefined,
    })
    const make = (liveness: RunLivenessLike, queue: Record<string, unknown>, runSync: any = jest.fn()) => {
      const service = fakeService(settings)
      service.runs.set("run_1", { id: "run_1", status: "running", mode: "full", trigger: "manual", error_code: null, progress: { pass_id: "pass_1" } })
      const worker = newWorker(service, liveness, runSync, queue)
      return { service, worker, runSync }
    }

    it("does nothing while its run is alive (run lock held), however long BullMQ's lock has been gone", async () => {
      const liveness = fakeLiveness()
      liveness.held = "run_1"
      const resumeRun = jest.fn()
      const { service, worker, runSync } = make(liveness, { resumeRun })
      try {
        expect(await worker.process(job() as unknown as Job<any>)).toEqual({ skipped: "running_elsewhere" })
        expect(service.runs.get("run_1").status).toBe("running")
        expect(resumeRun).not.toHaveBeenCalled()
        expect(runSync).not.toHaveBeenCalled()
      } finally {
        await worker.close()
      }
    })

    it("resumes a run whose process died: marks it interrupted and runs a retry that continues its pass", async () => {
      const liveness = fakeLiveness()
      let retryRow: any = null
      const runSync = jest.fn(async () => ({ status: "succeeded" as const }))
      const { service, worker } = make(
        liveness,
        {
          resumeRun: async (row: any, jobId: string) => {
            retryRow = {
              id: "run_2",
              status: "queued",
              mode: row.mode,
              trigger: "retry",
              job_id: jobId,
              progress: { resume_of: row.id, pass_id: row.progress.pass_id },
            }
            service.runs.set("run_2", retryRow)
            return retryRow
          },
        },
        runSync
      )
      try {
        expect(await worker.process(job() as unknown as Job<any>)).toEqual({ status: "succeeded" })
        expect(service.runs.get("run_1")).toMatchObject({ status: "interrupted", error_code: "process_stopped" })
        expect(runSync).toHaveBeenCalledTimes(1)
        expect((runSync.mock.calls[0] as any[])[1]).toMatchObject({ runId: "run_2", mode: "full", resume: { passId: "pass_1" } })
        expect(liveness.held).toBeNull()
      } finally {
        await worker.close()
      }
    })

    it("a retry of earlier work asks nothing while the key or plan is refused for these settings, and goes on once they change", async () => {
      const resumeRun = jest.fn(async (row: any) => ({ id: "run_2", status: "queued", mode: row.mode, trigger: "retry", progress: { resume_of: row.id } }))
      const runSync = jest.fn(async () => ({ status: "succeeded" as const }))
      const { service, worker } = make(fakeLiveness(), { resumeRun }, runSync)
      // A transient failure's delayed retry (BullMQ's second attempt) of a run that failed.
      service.runs.set("run_1", { id: "run_1", status: "failed", mode: "changes", trigger: "manual", error_code: "network_error", progress: {} })
      let state = { id: "state_1", blocked_code: "invalid_api_key", blocked_revision: settings.revision }
      service.getState = async () => state as any
      try {
        expect(await worker.process(job(1) as unknown as Job<any>)).toEqual({ skipped: "invalid_api_key" })
        expect(resumeRun).not.toHaveBeenCalled()
        expect(runSync).not.toHaveBeenCalled()
        // Refused for earlier settings (the admin saved a new key since): the retry runs.
        state = { id: "state_1", blocked_code: "invalid_api_key", blocked_revision: settings.revision - 1 }
        expect(await worker.process(job(1) as unknown as Job<any>)).toEqual({ status: "succeeded" })
        expect(resumeRun).toHaveBeenCalledTimes(1)
        expect(runSync).toHaveBeenCalledTimes(1)
      } finally {
        await worker.close()
      }
    })

    it("a retry asks nothing when a save that keeps the block lands between its reads of the settings and the block", async () => {
      const resumeRun = jest.fn(async (row: any) => ({ id: "run_2", status: "queued", mode: row.mode, trigger: "retry", progress: { resume_of: row.id } }))
      const runSync = jest.fn(async () => ({ status: "succeeded" as const }))
      const { service, worker } = make(fakeLiveness(), { resumeRun }, runSync)
      service.runs.set("run_1", { id: "run_1", status: "failed", mode: "changes", trigger: "manual", error_code: "network_error", progress: {} })
      // The job read the settings at revision R; the save then wrote R+1 and carried the block to it.
      let reads = 0
      const saved = { ...settings, revision: settings.revision + 1 }
      service.getEffectiveSettings = async () => (reads++ === 0 ? settings : saved) as any
      service.getState = async () => ({ id: "state_1", blocked_code: "plan_required", blocked_revision: saved.revision }) as any
      try {
        expect(await worker.process(job(1) as unknown as Job<any>)).toEqual({ skipped: "plan_required" })
        expect(resumeRun).not.toHaveBeenCalled()
        expect(runSync).not.toHaveBeenCalled()
      } finally {
        await worker.close()
      }
    })

    it("a retry of earlier work asks nothing once the key is removed or the sync disabled", async () => {
      const resumeRun = jest.fn()
      const { service, worker, runSync } = make(fakeLiveness(), { resumeRun })
      service.runs.set("run_1", { id: "run_1", status: "failed", mode: "changes", trigger: "manual", error_code: "network_error", progress: {} })
      try {
        service.getEffectiveSettings = async () => ({ ...settings, apiKey: null, apiKeyHash: null }) as any
        expect(await worker.process(job(1) as unknown as Job<any>)).toEqual({ skipped: "not_configured_or_disabled" })
        service.getEffectiveSettings = async () => ({ ...settings, enabled: false }) as any
        expect(await worker.process(job(1) as unknown as Job<any>)).toEqual({ skipped: "not_configured_or_disabled" })
        expect(resumeRun).not.toHaveBeenCalled()
        expect(runSync).not.toHaveBeenCalled()
      } finally {
        await worker.close()
      }
    })

    it("does not resume what later work already continues", async () => {
      const { service, worker, runSync } = make(fakeLiveness(), { resumeRun: async () => null })
      try {
        expect(await worker.process(job() as unknown as Job<any>)).toEqual({ skipped: "superseded" })
        expect(service.runs.get("run_1").status).toBe("interrupted")
        expect(runSync).not.toHaveBeenCalled()
      } finally {
        await worker.close()
      }
    })
  })
})
