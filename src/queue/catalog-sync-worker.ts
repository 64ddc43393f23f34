// The BullMQ worker (concurrency 1, only on instances in worker or shared mode). Each job is
// one run: take the run lock (a PostgreSQL advisory lock held on a connection of its own, see
// run-liveness.ts), build the client, call runSync with the lock as its fence,
// release. Shutdown aborts the run's signal; runSync stops at the next page boundary after
// committing. Liveness never depends on BullMQ's job lock: a job BullMQ thinks stalled (its
// process blocked for longer than the lock duration) is handed out again, sees its run alive
// and completes without doing anything; a run whose process died is resumed from its cursor by
// the queue's recovery (at worker start and every few seconds), not by BullMQ's stall check.
import { Worker, type Job } from "bullmq"
import type Redis from "ioredis"
import type { EffectiveSettings } from "../sync/settings"
import { isConfigured } from "../sync/settings"
import { QUEUE_NAME } from "./redis"
import type { RunLivenessLike, RunFence } from "./run-liveness"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import type { CatalogClient } from "../catalog-client"
import type { CatalogClientFactory } from "./catalog-client-factory"
import type { CatalogSyncQueue } from "./catalog-sync-queue"
import type { SyncHeapGrowth } from "./heap-growth"
// What a run ends with: its status ("paused" by the safety brake included) and error code.
import type { RunSyncResult } from "../sync-run/run-end"
import type { CatalogSyncAlerts } from "./catalog-sync-alerts"
import { RETRY_BACKOFF_MS, RUN_ATTEMPTS, runRetryDelayMs } from "./catalog-sync-queue"
import { runErrorOf } from "../sync/write-failures"
import { checkSyncOverdue } from "./sync-overdue-check"
import { classifyFailureKind, classOfCode, isTransientClass, type FailureClass } from "../sync/failure-class"
import { requestPricingFor } from "../sync/run-state"
import type { CatalogSyncStateRow } from "../modules/catalog_sync/models/catalog-sync-state"
import { type CatalogSyncModuleService, type RunJobData, type RunMode, type RunRow, isBlocked } from "./types"

/** The part of Medusa's Logger the worker uses. */
type WorkerLogger = Pick<Logger, "info" | "warn" | "error">

/** runSync's signature, as the worker calls it (the runtime module hands it the real one). */
export type RunSyncFn = (
  container: MedusaContainer,
  input: {
    runId: string
    mode: RunMode
    settings: EffectiveSettings
    client: CatalogClient
    signal: AbortSignal
    fence: RunFence
    resume?: { passId: string | null; bookkeeping?: Record<string, unknown> | null } | null
  }
) => Promise<RunSyncResult>

/** How often a run in progress looks at the quota its requests have used (no request of its own). */
const QUOTA_CHECK_EVERY_MS = 30_000
/** How often a worker looks for runs whose process died, to resume them. */
const RECOVERY_EVERY_MS = 5_000
/**
 * BullMQ fails a job that stalled more often than this. Stalls are harmless here (a job handed
 * out again finds its run alive, or resumes it), so a job is never failed for stalling.
 */
export const MAX_STALLED_COUNT = 1_000_000

/** Thrown to let BullMQ retry a run that failed for a transient reason (with backoff). */
export class TransientRunFailure extends Error {
  /** @param retryAfterMs the API's Retry-After of the 429 the run failed with: the retry waits at least this. */
  constructor(
    readonly errorCode: string,
    readonly retryAfterMs: number | null = null
  ) {
    super(`catalog sync run failed transiently (${errorCode}); retrying with backoff`)
    this.name = "TransientRunFailure"
  }
}

export class CatalogSyncWorker {
  readonly worker: Worker<RunJobData>
  readonly #liveness: RunLivenessLike
  readonly #queue: CatalogSyncQueue
  readonly #container: MedusaContainer
  readonly #service: () => CatalogSyncModuleService
  readonly #runSync: RunSyncFn
  readonly #clients: Pick<CatalogClientFactory, "create">
  readonly #logger: WorkerLogger
  readonly #heapGrowth: Pick<SyncHeapGrowth, "hold"> | null
  readonly #alerts: Pick<CatalogSyncAlerts, "afterRun" | "checkQuota" | "settle" | "notify"> | null
  /** Aborted on shutdown: the run in progress stops at its next page boundary. */
  readonly #shutdown = new AbortController()
  #current: Promise<unknown> | null = null
  #recovering: Promise<void> | null = null
  readonly #retryBackoffMs: number
  #sweepTimer: NodeJS.Timeout

  constructor(input: {
    connection: Redis
    prefix: string
    liveness: RunLivenessLike
    queue: CatalogSyncQueue
    /** The app's container, handed to runSync (it runs the app's workflows). */
    container: MedusaContainer
    service: () => CatalogSyncModuleService
    runSync: RunSyncFn
    clients: Pick<CatalogClientFactory, "create">
    logger: WorkerLogger
    /** First retry delay of a failed run (default RETRY_BACKOFF_MS). */
    retryBackoffMs?: number
    /** BullMQ's job lock (default 60 s); tests shorten it to make a stall happen sooner. */
    jobLockMs?: number
    /** Held while a run is in progress here (V8's heap growth; see heap-growth.ts). */
    heapGrowth?: Pick<SyncHeapGrowth, "hold">
    /** Tells the shop owner of a brake pause, a refused key, the quota, repeated failures (catalog-sync-alerts.ts). */
    alerts?: Pick<CatalogSyncAlerts, "afterRun" | "checkQuota" | "settle" | "notify">
  }) {
    this.#liveness = input.liveness
    this.#queue = input.queue
    this.#container = input.container
    this.#service = input.service
    this.#runSync = input.runSync
    this.#clients = input.clients
    this.#logger = input.logger
    this.#heapGrowth = input.heapGrowth ?? null
    this.#alerts = input.alerts ?? null
    const retryBackoffMs = input.retryBackoffMs ?? RETRY_BACKOFF_MS
    this.#retryBackoffMs = retryBackoffMs
    this.worker = new Worker<RunJobData>(QUEUE_NAME, (job) => this.#track(this.process(job)), {
      connection: input.connection,
      prefix: input.prefix,
      concurrency: 1,
      // A run takes minutes; its BullMQ lock is renewed automatically meanwhile.
      lockDuration: input.jobLockMs ?? 60_000,
      // BullMQ's stalled check (default 30 s) at most once per lock duration.
      stalledInterval: Math.min(30_000, input.jobLockMs ?? 60_000),
      maxStalledCount: MAX_STALLED_COUNT,
      settings: { backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) => runRetryDelayMs(attemptsMade, err, retryBackoffMs) },
    })
    this.worker.on("failed", (job, err) => {
      if (!(err instanceof TransientRunFailure)) this.#logger.warn(`catalog sync: job ${job?.id} failed: ${err.message}`)
    })
    this.worker.on("error", (err) => this.#logger.warn(`catalog sync worker: ${err.message}`))
    // Runs whose process died (SIGKILL, OOM) are resumed by whichever worker notices first:
    // this one at once (app start) and every few seconds (another instance died).
    this.recover()
    this.#sweepTimer = setInterval(() => this.recover(), RECOVERY_EVERY_MS)
    this.#sweepTimer.unref()
  }

  /**
   * Resumes interrupted work whose process is gone, re-creates what Redis lost (the schedule,
   * the queue's concurrency) and tells the shop owner when no run has started for too long.
   * Never throws; one pass at a time (a pass can outlast the interval while Redis or
   * PostgreSQL is down).
   */
  recover(): void {
    if (this.#shutdown.signal.aborted || this.#recovering) return
    this.#recovering = this.#recoverOnce().finally(() => {
      this.#recovering = null
    })
  }

  async #recoverOnce(): Promise<void> {
    try {
      const run = await this.#queue.recover()
      if (run) this.#logger.info(`catalog sync: resuming interrupted work as run ${run.id} (${run.mode})`)
    } catch (e: any) {
      this.#logger.warn(`catalog sync: recovery check failed: ${e?.message ?? e}`)
    }
    try {
      const settings = await this.#service().getEffectiveSettings()
      const repaired = await this.#queue.reassertDesiredState(settings)
      if (repaired.length) this.#logger.warn(`catalog sync: re-created in Redis from the settings: ${repaired.join(", ")} (Redis lost them)`)
      await this.#alertIfOverdue(settings)
    } catch (e: any) {
      this.#logger.warn(`catalog sync: desired state check failed: ${e?.message ?? e}`)
    }
  }

  async #alertIfOverdue(settings: EffectiveSettings): Promise<void> {
    if (!this.#alerts) return
    const pollEveryMs = this.#queue.scheduleEveryMs(settings)
    const overdue = await checkSyncOverdue({ service: this.#service(), settings, pollEveryMs })
    if (!overdue.overdue || !overdue.lastRunId) return
    this.#logger.warn(`catalog sync: no run started since ${overdue.since.toISOString()} (over two poll intervals)`)
    this.#alerts.notify({ kind: "sync_overdue", runId: overdue.lastRunId, since: overdue.since.toISOString(), pollEveryMs })
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#current = promise
    return promise.finally(() => {
      if (this.#current === promise) this.#current = null
    })
  }

  async process(job: Job<RunJobData>): Promise<RunSyncResult | { skipped: string }> {
    const service = this.#service()
    let settings = await service.getEffectiveSettings()
    const picked = await this.#runFor(job, settings)
    if (!picked.run) {
      if (picked.skipped === "running_elsewhere" || picked.skipped === "superseded" || picked.skipped === "taken_elsewhere") {
        this.#logger.info(`catalog sync: job ${job.id} handed out again; skipped (${picked.skipped})`)
      }
      return { skipped: picked.skipped }
    }
    const run = picked.run

    if (!isConfigured(settings)) return this.#failNotConfigured(run.id)

    const state = await service.getState()
    const acquired = await this.#liveness.acquire(run.id, state.id, this.#shutdown.signal)
    if ("aborted" in acquired) {
      await this.#finish(run.id, "interrupted", "shutdown", "The app shut down before the run started")
      return { status: "interrupted", errorCode: "shutdown" }
    }
    if ("taken" in acquired) {
      this.#logger.info(`catalog sync: job ${job.id} skipped: run ${run.id} was already taken`)
      return { skipped: "taken_elsewhere" }
    }
    const lease = acquired.lease
    try {
      // The settings read before the lock may hold a key a disconnect removed since.
      settings = await this.#queue.settingsForStartingRun()
    } catch (e: any) {
      // Redis unreachable: the run ends failed (and is retried like any failure), its lock freed.
      const { code, message } = runErrorOf(e)
      await this.#finishIfOpen(run.id, "failed", code, message, classifyFailureKind(e).class).catch(() => undefined)
      await lease.release()
      throw e
    }
    if (!isConfigured(settings)) {
      // Its final status is stored before its lock goes, as for every run.
      const failed = await this.#failNotConfigured(run.id)
      await lease.release()
      return failed
    }
    let result: RunSyncResult
    let thrownRetryAfterMs: number | null = null
    let client: CatalogClient | null = null
    this.#logger.info(`catalog sync: run ${run.id} (${run.mode}, ${run.trigger}) started in process ${process.pid}`)
    // Everything after the lock is taken sits in this try: a throw anywhere (even building the
    // client) must release the lock, or every later run would wait for it forever.
    const releaseHeapGrowth = this.#heapGrowth?.hold()
    let quotaTimer: NodeJS.Timeout | null = null
    this.#queue.runningHere?.add(run.id)
    try {
      const progress = (run.progress ?? null) as {
        pass_id?: unknown
        resume_from?: unknown
        stalled_resumes?: unknown
        after_brake?: unknown
        brake_answer?: unknown
      } | null
      // The run carrying out the admin's answer keeps saying so in its progress while it runs and after.
      const answer = typeof progress?.after_brake === "string" ? { after_brake: progress.after_brake, brake_answer: progress.brake_answer ?? null } : null
      const resumeFrom = progress?.resume_from ? { resume_from: progress.resume_from, stalled_resumes: progress.stalled_resumes ?? 0 } : null
      const resume =
        run.trigger === "retry"
          ? {
              passId: typeof progress?.pass_id === "string" ? progress.pass_id : null,
              bookkeeping: resumeFrom || answer ? { ...resumeFrom, ...answer } : null,
            }
          : null
      // Read under the lock: the cursor this run continues decides what its requests send.
      const held = (await service.getState()) as CatalogSyncStateRow
      const runSettings = { ...settings, pricing: requestPricingFor(held, run.mode === "full" ? "full" : "changes", settings.pricing, resume) }
      client = this.#clients.create(runSettings, { signal: undefined })
      const runClient = client
      if (this.#alerts) {
        const alerts = this.#alerts
        quotaTimer = setInterval(
          () => alerts.checkQuota({ runId: run.id, settings, quota: runClient.quota, account: runClient.account, limiter: runClient.limiter }),
          QUOTA_CHECK_EVERY_MS
        )
        quotaTimer.unref()
      }
      result = await this.#runSync(this.#container, {
        runId: run.id,
        mode: run.mode,
        settings: runSettings,
        client,
        signal: this.#shutdown.signal,
        fence: lease,
        resume,
      })
    } catch (e: any) {
      // runSync records its own failures; this covers a throw before it could.
      const { code, message } = runErrorOf(e)
      const kind = classifyFailureKind(e)
      if (typeof e?.retryAfterSeconds === "number") thrownRetryAfterMs = e.retryAfterSeconds * 1000
      this.#logger.error(`catalog sync: run ${run.id} crashed: ${message}`)
      await this.#finishIfOpen(run.id, "failed", code, message, kind.class)
      result = { status: "failed", errorCode: code, errorClass: kind.class }
    } finally {
      if (quotaTimer) clearInterval(quotaTimer)
      releaseHeapGrowth?.()
      await client?.close().catch(() => undefined)
      await lease.release()
      this.#queue.runningHere?.delete(run.id)
    }
    // In the background: a notification never fails or holds up a run.
    this.#alerts?.afterRun({
      runId: run.id,
      status: result.status,
      errorCode: result.errorCode ?? null,
      settings,
      quota: client?.quota ?? null,
      account: client?.account ?? null,
      limiter: client?.limiter ?? null,
    })

    if (result.status === "failed" && result.errorCode && !this.#shutdown.signal.aborted) {
      const retryAfterMs = this.#retryAfterMs(result, client, thrownRetryAfterMs)
      if (await this.#retries(job, result, retryAfterMs)) throw new TransientRunFailure(result.errorCode, retryAfterMs)
    }
    return result
  }

  /**
   * Whether a failed run is tried again, by its failure's class: a transient one (the catalog
   * refusing, resetting, timing out, 5xx, 429) with backoff until the next poll takes over (and
   * at least RUN_ATTEMPTS times); an unknown one RUN_ATTEMPTS times; a refused key or an invalid
   * request never.
   */
  async #retries(job: Job<RunJobData>, result: RunSyncResult, retryAfterMs: number | null): Promise<boolean> {
    const cls = result.errorClass ?? classOfCode(result.errorCode ?? "") ?? "internal"
    const attempt = job.attemptsMade + 1
    if (attempt >= (job.opts.attempts ?? 1)) return false
    if (cls === "internal") return attempt < RUN_ATTEMPTS
    if (!isTransientClass(cls)) return false
    if (attempt < RUN_ATTEMPTS) return true
    const nextPoll = await this.#queue.nextRunAt().catch(() => null)
    const retryAt = Date.now() + runRetryDelayMs(attempt, { retryAfterMs }, this.#retryBackoffMs)
    return nextPoll !== null && retryAt < nextPoll.getTime()
  }

  /** How long the API asked us to wait after the 429 a run failed with, or null. */
  #retryAfterMs(result: RunSyncResult, client: { retryNotBefore: number | null } | null, thrown: number | null): number | null {
    if (result.errorCode !== "rate_limited" && result.errorCode !== "daily_quota_exceeded") return null
    const fromClient = client?.retryNotBefore != null ? Math.max(0, client.retryNotBefore - Date.now()) : null
    if (fromClient === null) return thrown
    return thrown === null ? fromClient : Math.max(fromClient, thrown)
  }

  /**
   * The refusal that blocks the settings this job read, or null. The state is read after them and
   * the settings once more after it: a save that keeps a block writes the settings' new revision and
   * the block's apart (save-settings.ts), and a save landing between this job's two reads left the
   * old settings against the new block, which matched neither alone.
   */
  async #blockedCode(settings: EffectiveSettings): Promise<string | null> {
    const service = this.#service()
    const state = await service.getState()
    if (!state.blocked_code) return null
    if (isBlocked(state, settings) || isBlocked(state, await service.getEffectiveSettings())) return state.blocked_code
    return null
  }

  /** The run row this job runs, creating it for scheduled jobs and retries. */
  async #runFor(job: Job<RunJobData>, settings: EffectiveSettings): Promise<{ run: RunRow; skipped?: undefined } | { run?: undefined; skipped: string }> {
    const service = this.#service()
    const { runId, mode, trigger } = job.data
    if (!runId) {
      // Scheduled: no API call at all when the key or plan was refused for these settings.
      if (!isConfigured(settings) || !settings.enabled) return { skipped: "not_configured_or_disabled" }
      const blocked = await this.#blockedCode(settings)
      if (blocked) return { skipped: blocked }
      const run = await this.#queue.createScheduledRun({ mode, jobId: job.id ?? null })
      if (!run) return { skipped: "already_running" }
      // The job names its run, so recovery can tell this job from a later one.
      await job.updateData({ runId: run.id, mode, trigger: "schedule" }).catch(() => undefined)
      return { run }
    }
    const row = await service.retrieveCatalogSyncRun(runId)
    if (row.status === "queued") return { run: row }
    if (row.status === "succeeded") return { skipped: "already_done" }
    if (row.status === "running") {
      // BullMQ hands a job out again when its process did not renew the job's lock in time
      // (a blocked event loop, or a dead process): only the run lock says which.
      if ((await this.#liveness.holder()) === row.id) return { skipped: "running_elsewhere" }
      await this.#finish(row.id, "interrupted", "process_stopped", "The process running this sync stopped before it finished")
    } else if (row.status === "failed" && job.attemptsMade === 0) {
      return { skipped: "run_failed" }
    }
    // A retry after a transient failure (BullMQ's backoff), or interrupted work: continue it as
    // a new "retry" run from the stored cursor, unless later work already did. While the key or
    // plan is refused for these settings it makes no request, like the schedule: saving the
    // settings resumes the work (resume-after-key-fix.ts). Disconnected or disabled, it makes
    // none either: the schedule's next run continues from the same cursor once enabled.
    if (!isConfigured(settings) || !settings.enabled) return { skipped: "not_configured_or_disabled" }
    const blocked = await this.#blockedCode(settings)
    if (blocked) return { skipped: blocked }
    const retry = await this.#queue.resumeRun(row, job.id ?? null)
    if (!retry) return { skipped: "superseded" }
    await job.updateData({ runId: retry.id, mode, trigger }).catch(() => undefined)
    this.#logger.info(`catalog sync: retrying ${trigger} run ${row.id} as ${retry.id} (attempt ${job.attemptsMade + 1})`)
    return { run: retry }
  }

  /** A run with no base URL or key ends failed before any request. */
  async #failNotConfigured(runId: string): Promise<RunSyncResult> {
    await this.#finish(runId, "failed", "not_configured", "Set the catalog API base URL and key in the settings")
    return { status: "failed", errorCode: "not_configured" }
  }

  async #finish(runId: string, status: "failed" | "interrupted", code: string, message: string, errorClass: FailureClass | null = null) {
    await this.#service().updateCatalogSyncRuns({
      id: runId,
      status,
      error_code: code,
      error_class: errorClass,
      error_message: message,
      finished_at: new Date(),
    })
  }

  async #finishIfOpen(runId: string, status: "failed" | "interrupted", code: string, message: string, errorClass: FailureClass | null = null) {
    const row = await this.#service()
      .retrieveCatalogSyncRun(runId)
      .catch(() => null)
    if (row && (row.status === "queued" || row.status === "running")) await this.#finish(runId, status, code, message, errorClass)
  }

  /** Stops taking jobs, aborts the run in progress (page boundary) and waits for it. */
  async close(): Promise<void> {
    clearInterval(this.#sweepTimer)
    this.#shutdown.abort()
    await this.#recovering
    // Closing while BullMQ still opens its connections makes them emit "Connection is
    // closed" with no listener left (an unhandled error): let them finish opening first.
    await this.worker.waitUntilReady().catch(() => undefined)
    const closing = this.worker.close()
    if (this.#current) await this.#current.catch(() => undefined)
    await closing
    await this.#alerts?.settle()
  }
}
