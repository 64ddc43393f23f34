// The BullMQ queue of sync runs and its job scheduler. Available in every worker mode: routes
// enqueue "sync now" / "full resync" here, and a settings change reschedules here at once.
import { Queue } from "bullmq"
import type Redis from "ioredis"
import type { EffectiveSettings } from "../sync/settings"
import { isConfigured } from "../sync/settings"
import { QUEUE_NAME, redisKeys } from "./redis"
import { withRedisMutex } from "./redis-mutex"
import type { RunLivenessLike } from "./run-liveness"
import { decideResume, RESUME_STALLED_CODE, resumeStalledMessage, type ResumeBookkeeping } from "./resume-bound"
import type { CatalogSyncModuleService, RunJobData, RunMode, RunRow, RunTrigger } from "./types"

export const SCHEDULER_ID = "catalog-sync-poll"
/**
 * Every failure worth a retry is tried this many times in total, with exponential backoff; a
 * transient one (failure-class.ts) further while its retry comes before the next poll.
 */
export const RUN_ATTEMPTS = 3
/** BullMQ's cap on a run job's attempts: the worker decides below it (catalog-sync-worker.ts). */
export const RUN_JOB_ATTEMPTS = 25
/** The default first retry delay (the runtime's retryBackoffMs, env CATALOG_SYNC_RETRY_BACKOFF_MS, overrides it). */
export const RETRY_BACKOFF_MS = 30_000

/** The backoff type of run jobs: exponential, but never sooner than the API's Retry-After. */
export const RUN_BACKOFF_TYPE = "catalog-sync-run"

/**
 * Delay before BullMQ hands a failed run out again: the backoff doubling per attempt, or
 * the Retry-After of a 429 the run failed with when that is longer.
 */
export function runRetryDelayMs(attemptsMade: number, error: unknown, backoffMs = RETRY_BACKOFF_MS): number {
  const exponential = Math.round(2 ** Math.max(0, attemptsMade - 1) * backoffMs)
  const retryAfterMs = (error as { retryAfterMs?: unknown } | undefined)?.retryAfterMs
  return typeof retryAfterMs === "number" && Number.isFinite(retryAfterMs) ? Math.max(exponential, Math.ceil(retryAfterMs)) : exponential
}

export type EnqueueResult = { run: RunRow; alreadyRunning: boolean }
/** What reassertDesiredState found missing in Redis and re-created. */
export type DesiredStateRepair = "global_concurrency" | "schedule"

export class CatalogSyncQueue {
  readonly queue: Queue<RunJobData>
  readonly #redis: Redis
  readonly #prefix: string
  readonly #service: () => CatalogSyncModuleService
  readonly #liveness: RunLivenessLike
  readonly #retryBackoffMs: number
  readonly #scheduleEveryMs: number | null
  readonly #onResumeStalled: ((row: RunRow, stalled: number) => void) | null
  /**
   * Runs whose runSync is in progress in this process (the worker keeps it). Their own process
   * ends them, with lost_run_lock when their lock went, so this process never judges them dead.
   */
  readonly runningHere = new Set<string>()

  /**
   * @param retryBackoffMs first retry delay of a failed run (default RETRY_BACKOFF_MS)
   * @param scheduleEveryMs test hook: the scheduler fires every N ms instead of the settings' interval
   */
  constructor(input: {
    queueConnection: Redis
    redis: Redis
    prefix: string
    service: () => CatalogSyncModuleService
    liveness: RunLivenessLike
    retryBackoffMs?: number
    scheduleEveryMs?: number | null
    /** Told when interrupted work is no longer resumed automatically (the alerts). */
    onResumeStalled?: (row: RunRow, stalled: number) => void
    /** Told of the queue's errors (Redis down, a command that failed in the background). */
    onError?: (e: Error) => void
  }) {
    this.#redis = input.redis
    this.#prefix = input.prefix
    this.#service = input.service
    this.#liveness = input.liveness
    this.#retryBackoffMs = input.retryBackoffMs ?? RETRY_BACKOFF_MS
    this.#scheduleEveryMs = input.scheduleEveryMs ?? null
    this.#onResumeStalled = input.onResumeStalled ?? null
    this.queue = new Queue<RunJobData>(QUEUE_NAME, { connection: input.queueConnection, prefix: input.prefix })
    // BullMQ re-emits its connection's errors here; without a listener they are printed unhandled.
    const onError = input.onError ?? (() => undefined)
    this.queue.on("error", (e) => onError(e))
  }

  /** One active job across every worker of every instance. */
  async init(): Promise<void> {
    await this.queue.setGlobalConcurrency(1)
  }

  /**
   * Re-creates from the settings (PostgreSQL) what the sync keeps in Redis when it is missing or
   * different: the global concurrency of one and the poll scheduler. Redis restarted empty (a
   * managed failover, a flush) loses both; the recovery loop and a reconnect call this. Returns
   * what it had to re-create.
   */
  async reassertDesiredState(settings: EffectiveSettings): Promise<DesiredStateRepair[]> {
    const repaired: DesiredStateRepair[] = []
    if ((await this.queue.getGlobalConcurrency()) !== 1) {
      await this.queue.setGlobalConcurrency(1)
      repaired.push("global_concurrency")
    }
    const wanted = isConfigured(settings) && settings.enabled
    const existing = await this.queue.getJobScheduler(SCHEDULER_ID)
    // A scheduler made before run retries were set on scheduled jobs gets them too.
    const outdated = !!existing && (existing.every !== this.scheduleEveryMs(settings) || existing.template?.opts?.attempts !== RUN_JOB_ATTEMPTS)
    if (wanted && (!existing || outdated)) {
      await this.syncSchedule(settings, { force: outdated })
      repaired.push("schedule")
    } else if (!wanted && existing) {
      await this.syncSchedule(settings)
      repaired.push("schedule")
    }
    return repaired
  }

  /** How often the scheduler polls for these settings (the test hook's interval when set). */
  scheduleEveryMs(settings: Pick<EffectiveSettings, "pollIntervalMinutes">): number {
    return this.#scheduleEveryMs ?? settings.pollIntervalMinutes * 60_000
  }

  /**
   * Starts a run unless one is already queued or running, in which case that one is returned.
   * `behindActive` (a pricing or rules change) queues a new run even while one runs, since the
   * running one uses the old pricing; an already queued full run (or one of the same mode) is reused.
   */
  async enqueueRun(input: { mode: RunMode; trigger: RunTrigger; behindActive?: boolean }): Promise<EnqueueResult> {
    const keys = redisKeys(this.#prefix)
    return withRedisMutex(this.#redis, keys.enqueueMutex, async () => {
      // A run the safety brake paused waits for the admin: no run (and no API request) meanwhile.
      const paused = await this.pausedRun()
      if (paused) return { run: paused, alreadyRunning: true }
      const active = await this.#interruptDeadRunsAndListLiveHeld()
      if (input.behindActive) {
        // A queued full pass prices with the settings it reads when it starts, so it covers a reprice too.
        const queuedFull = active.find((r) => r.status === "queued" && (r.mode === "full" || r.mode === input.mode))
        if (queuedFull) return { run: queuedFull, alreadyRunning: true }
      } else if (active.length) {
        return { run: active.find((r) => r.status === "running") ?? active[0], alreadyRunning: true }
      }
      return { run: await this.#addRun({ mode: input.mode, trigger: input.trigger }), alreadyRunning: false }
    })
  }

  /**
   * The run of a job the scheduler fired, created under the same mutex as enqueueRun, so a
   * "Sync now" at the same moment and the scheduled job never both start a run. Null when a run
   * is alive (the scheduled job then does nothing).
   */
  async createScheduledRun(input: { mode: RunMode; jobId: string | null }): Promise<RunRow | null> {
    return withRedisMutex(this.#redis, redisKeys(this.#prefix).enqueueMutex, async () => {
      if ((await this.pausedRun()) || (await this.#interruptDeadRunsAndListLiveHeld()).length) return null
      return this.#service().createCatalogSyncRuns({ trigger: "schedule", mode: input.mode, status: "queued", job_id: input.jobId })
    })
  }

  /**
   * The settings a run starts with, read once it holds the run lock and under the enqueue
   * mutex. A disconnect removes the key under the same mutex, and only while no run holds the
   * lock (whileNoRunHoldsTheLock): so it comes either before this read (the run sees no key and
   * makes no request) or after it (the disconnect is refused). Settings read before the lock
   * (when the scheduled job fired) may hold a key removed since.
   */
  async settingsForStartingRun(): Promise<EffectiveSettings> {
    return withRedisMutex(this.#redis, redisKeys(this.#prefix).enqueueMutex, () => this.#service().getEffectiveSettings())
  }

  /**
   * Runs `change` under the enqueue mutex unless a run is running or holds the run lock (it has
   * read, or is about to read, the settings it runs with): then returns that run's id instead.
   */
  async whileNoRunHoldsTheLock<T>(change: () => Promise<T>): Promise<{ running_run_id: string } | { done: T }> {
    return withRedisMutex(this.#redis, redisKeys(this.#prefix).enqueueMutex, async () => {
      const running = (await this.#interruptDeadRunsAndListLiveHeld()).find((run) => run.status === "running")
      const holder = running?.id ?? (await this.#liveness.holder())
      if (holder) return { running_run_id: holder }
      return { done: await change() }
    })
  }

  /** The run the safety brake paused that the admin has not answered yet, or null. */
  async pausedRun(): Promise<RunRow | null> {
    const rows = await this.#service().listCatalogSyncRuns({ status: "paused" }, { order: { created_at: "DESC" }, take: 5 })
    return rows.find((r) => !r.brake_resolution) ?? null
  }

  /**
   * The admin answered a paused run (confirm or discard): a run continuing its pass from the
   * stored cursor (the paused page was not written) is queued, as a resumed run.
   */
  async continuePausedRun(row: RunRow): Promise<RunRow> {
    return withRedisMutex(this.#redis, redisKeys(this.#prefix).enqueueMutex, async () =>
      this.#addRun({
        mode: row.mode,
        trigger: "retry",
        // The admin sees it as the run that carries out their answer, not as a retry.
        progress: {
          ...CatalogSyncQueue.resumeProgress(row),
          after_brake: row.id,
          brake_answer: (row.brake_resolution as { action?: string } | null)?.action ?? null,
        },
      })
    )
  }

  /** Creates a queued run row and its job (the job id is the run id). */
  async #addRun(input: { mode: RunMode; trigger: RunTrigger; progress?: Record<string, unknown> }): Promise<RunRow> {
    const service = this.#service()
    const run = await service.createCatalogSyncRuns({
      trigger: input.trigger,
      mode: input.mode,
      status: "queued",
      job_id: null,
      ...(input.progress ? { progress: input.progress } : {}),
    })
    await this.queue.add(
      "run",
      { runId: run.id, mode: input.mode, trigger: input.trigger },
      {
        jobId: run.id,
        attempts: RUN_JOB_ATTEMPTS,
        backoff: { type: RUN_BACKOFF_TYPE, delay: this.#retryBackoffMs },
        removeOnComplete: 200,
        removeOnFail: 200,
      }
    )
    return service.updateCatalogSyncRuns({ id: run.id, job_id: run.id })
  }

  /** What a run that continues `row` inherits: the pass it was in, so the pass (and its sweep) go on. */
  static resumeProgress(row: RunRow): Record<string, unknown> {
    const progress = (row.progress ?? null) as { pass_id?: unknown } | null
    return { phase: "queued", resume_of: row.id, pass_id: typeof progress?.pass_id === "string" ? progress.pass_id : null }
  }

  /**
   * Whether interrupted work is resumed now (with the bookkeeping its resume carries), later
   * (backoff) or no more (resume-bound.ts). Giving up marks the run RESUME_STALLED_CODE, which
   * /status shows and recovery leaves alone until a new run starts the work again.
   */
  async #boundResume(row: RunRow): Promise<ResumeBookkeeping | null> {
    if (row.error_code === RESUME_STALLED_CODE) return null
    const state = await this.#service().getState()
    const decision = decideResume({
      interrupted: row,
      state: { cursor: state.cursor ?? null, pass: typeof state.full_pass_id === "string" ? state.full_pass_id : null },
      now: Date.now(),
    })
    if (decision.action === "resume") return decision.bookkeeping
    if (decision.action === "give_up") {
      await this.#service().updateCatalogSyncRuns({
        selector: { id: row.id, status: "interrupted" },
        data: { error_code: RESUME_STALLED_CODE, error_message: resumeStalledMessage(decision.stalled, row) },
      })
      this.#onResumeStalled?.(row, decision.stalled)
    }
    return null
  }

  /** Whether a run was created after this one (its work is then continued by that run). */
  async #superseded(row: RunRow): Promise<boolean> {
    if (!row.created_at) return false
    const later = await this.#service().listCatalogSyncRuns({ created_at: { $gt: row.created_at }, id: { $ne: row.id } }, { take: 1, select: ["id"] })
    return later.length > 0
  }

  /**
   * A job handed out again for a run that did not finish (a transient failure retried by
   * BullMQ, or a process that died): creates the "retry" run that continues it, run by that
   * same job. Null when another run is alive (it continues from the same stored cursor
   * anyway), or, for interrupted work, when a later run already continues it.
   */
  async resumeRun(row: RunRow, jobId: string | null): Promise<RunRow | null> {
    return withRedisMutex(this.#redis, redisKeys(this.#prefix).enqueueMutex, async () => {
      // Interrupted work continued by a later run (e.g. recovery already resumed it) is done
      // with; a failed run is retried with backoff as promised, whatever ran in between.
      if (row.status === "interrupted" && (await this.#superseded(row))) return null
      if ((await this.#interruptDeadRunsAndListLiveHeld()).length) return null
      let bookkeeping: ResumeBookkeeping | null = null
      if (row.status === "interrupted") {
        // Bounded like recover(): later (recover() then resumes it) or no more.
        bookkeeping = await this.#boundResume(row)
        if (!bookkeeping) return null
      }
      return this.#service().createCatalogSyncRuns({
        trigger: "retry",
        mode: row.mode,
        status: "queued",
        job_id: jobId,
        progress: { ...CatalogSyncQueue.resumeProgress(row), ...(bookkeeping ?? {}) },
      })
    })
  }

  /**
   * Resumes interrupted work whose process is gone, at once: when no run is alive and the
   * latest run ended interrupted (its process died, or the app shut down mid-run), a "retry"
   * run continuing it from the stored cursor is queued. The dead run's job, which BullMQ would
   * keep "active" until its job lock expires and a stall check notices (about a minute, and
   * blocking the queue's single slot meanwhile), is completed first. Returns the new run.
   */
  async recover(): Promise<RunRow | null> {
    return withRedisMutex(this.#redis, redisKeys(this.#prefix).enqueueMutex, async () => {
      if ((await this.#interruptDeadRunsAndListLiveHeld()).length) return null
      const [latest] = await this.#service().listCatalogSyncRuns({}, { order: { created_at: "DESC" }, take: 1 })
      if (!latest || latest.status !== "interrupted" || latest.error_code === RESUME_STALLED_CODE) return null
      const bookkeeping = await this.#boundResume(latest)
      await this.#abandonJob(latest)
      if (!bookkeeping) return null
      return this.#addRun({ mode: latest.mode, trigger: "retry", progress: { ...CatalogSyncQueue.resumeProgress(latest), ...bookkeeping } })
    })
  }

  /**
   * The latest run when it ended interrupted and nothing continues it yet (work pending, perhaps
   * after a backoff). Null when its work is no longer resumed automatically (RESUME_STALLED_CODE).
   */
  async pendingResume(): Promise<RunRow | null> {
    const [latest] = await this.#service().listCatalogSyncRuns({}, { order: { created_at: "DESC" }, take: 1 })
    return latest?.status === "interrupted" && latest.error_code !== RESUME_STALLED_CODE ? latest : null
  }

  /**
   * Completes the BullMQ job of a run whose process died, when BullMQ still counts it active
   * (its job lock not yet expired). Only called once the run lock shows the run dead. The
   * token "0" is BullMQ's "no lock check": the lock belongs to the dead worker.
   */
  async #abandonJob(row: RunRow): Promise<void> {
    if (!row.job_id) return
    const job = await this.queue.getJob(row.job_id)
    if (!job || (job.data?.runId && job.data.runId !== row.id)) return
    if ((await job.getState()) !== "active") return
    await job.moveToCompleted({ abandoned: true, run_id: row.id, reason: row.error_code ?? "process_stopped" }, "0", false).catch(() => undefined)
  }

  /**
   * Marks "interrupted" every queued/running row that is dead (its job vanished, e.g. Redis
   * flushed, or its process died: running, lock free, job not active), and returns the rows
   * that are really alive. Writes: not a plain query. Taken under the enqueue mutex: a run
   * being enqueued has its row before its job, and must not be judged dead in between.
   */
  async interruptDeadRunsAndListLive(): Promise<RunRow[]> {
    return withRedisMutex(this.#redis, redisKeys(this.#prefix).enqueueMutex, () => this.#interruptDeadRunsAndListLiveHeld())
  }

  /** interruptDeadRunsAndListLive for a caller that already holds the enqueue mutex. */
  async #interruptDeadRunsAndListLiveHeld(): Promise<RunRow[]> {
    const service = this.#service()
    const rows = await service.listCatalogSyncRuns({ status: ["queued", "running"] }, { order: { created_at: "ASC" }, take: 20 })
    const holder = await this.#liveness.holder()
    const live: RunRow[] = []
    for (const listed of rows) {
      if (await this.#isAlive(listed, holder)) {
        live.push(listed)
        continue
      }
      // Read again before judging it dead: since the list was read the run may have ended
      // (its final status is stored before its lock goes), been claimed, or got its job.
      const row = await service.retrieveCatalogSyncRun(listed.id)
      if (row.status !== "queued" && row.status !== "running") continue
      if (await this.#isAlive(row, await this.#liveness.holder())) {
        live.push(row)
        continue
      }
      // Only while the status is still the one judged: never over a final status.
      await service.updateCatalogSyncRuns({
        selector: { id: row.id, status: row.status },
        data: {
          status: "interrupted",
          finished_at: new Date(),
          error_code: row.error_code ?? "process_stopped",
          error_message: row.error_message ?? "The process running this sync stopped before it finished",
        },
      })
    }
    return live
  }

  async #isAlive(row: RunRow, lockHolder: string | null): Promise<boolean> {
    if (lockHolder === row.id || this.runningHere.has(row.id)) return true
    // A running row belongs to the holder of the run lock (PostgreSQL holds it for as long as
    // the run's connection lives, however long a page takes or the event loop is blocked);
    // without it, its process died.
    if (row.status === "running") return false
    // Queued: alive while its job waits or is being picked up (or waits for the run lock). A
    // row whose job id is not stored yet has the job named after it (#addRun).
    const job = await this.queue.getJob(row.job_id ?? row.id)
    if (!job) return false
    const state = await job.getState()
    return state === "waiting" || state === "delayed" || state === "active" || state === "prioritized"
  }

  /** Creates, changes or removes the poll scheduler to match the settings. */
  async syncSchedule(settings: EffectiveSettings, opts: { force?: boolean } = {}): Promise<void> {
    if (!isConfigured(settings) || !settings.enabled) {
      await this.queue.removeJobScheduler(SCHEDULER_ID)
      return
    }
    const every = this.scheduleEveryMs(settings)
    const existing = await this.queue.getJobScheduler(SCHEDULER_ID)
    if (existing && existing.every === every && !opts.force) return
    await this.queue.upsertJobScheduler(
      SCHEDULER_ID,
      // Starting one interval from now: BullMQ would otherwise fire an "every" scheduler at once.
      { every, startDate: new Date(Date.now() + every) },
      {
        name: "scheduled",
        data: { mode: "changes", trigger: "schedule" },
        // A scheduled run that fails transiently is retried like any other run.
        opts: { removeOnComplete: 200, removeOnFail: 200, attempts: RUN_JOB_ATTEMPTS, backoff: { type: RUN_BACKOFF_TYPE, delay: this.#retryBackoffMs } },
      }
    )
  }

  /** When the scheduler fires next, or null when there is no schedule. */
  async nextRunAt(): Promise<Date | null> {
    const scheduler = await this.queue.getJobScheduler(SCHEDULER_ID)
    return scheduler?.next ? new Date(scheduler.next) : null
  }

  async close(): Promise<void> {
    await this.queue.close()
  }
}
