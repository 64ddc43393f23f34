// How a sync run ends: its run row (status, counts, error), mirrored images retried and closed,
// an earlier 401/403 block cleared by a run that got through, old change-log rows pruned. A run
// that lost its run lock touches nothing but its own row.
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { InvalidApiKeyError, PlanRequiredError } from "../catalog-client/errors"
import type { BrakePause } from "../sync/safety-brake"
import { runErrorOf, runErrorText } from "../sync/write-failures"
import { classifyFailureKind, type FailureClass, type FailureKind } from "../sync/failure-class"
import { databaseRestartedSince } from "../bulk-write/connection"
import { withTitles } from "./brake-reads"
import { pruneChangeLog } from "./change-log-retention"
import type { PageImages } from "./page-images"
import { LostRunLockError } from "./run-fence"
import type { RunRecorder, RunStatus } from "./run-recorder"
import type { SyncRunState } from "./sync-run-state"

export interface RunSyncResult {
  /** "paused": the safety brake stopped the run before a page; it waits for the admin (confirm / discard). */
  status: RunStatus
  errorCode?: string
  /** The failure's class (src/sync/failure-class.ts): what the worker retries, resumes or leaves. */
  errorClass?: FailureClass
}

export interface RunEnding {
  container: MedusaContainer
  logger: Pick<Logger, "info" | "warn" | "error">
  state: SyncRunState
  recorder: RunRecorder
  images: PageImages | null
  /** The sync state, through the run's fence. */
  storeState(patch: Record<string, unknown>): Promise<void>
  settingsRevision: number
  signal: AbortSignal
}

export async function endRun(run: RunEnding, status: RunStatus, error?: unknown, kind?: FailureKind): Promise<RunSyncResult> {
  const { images, logger } = run
  const failure = error === undefined ? undefined : { ...runErrorOf(error), class: (kind ?? classifyFailureKind(error)).class }
  run.state.phase = status === "succeeded" ? "done" : status
  if (images && status === "succeeded") {
    const rewritten = await images.revisitDue().catch((e) => (logger.warn(`catalog sync: retrying images failed: ${runErrorText(e)}`), 0))
    if (rewritten) logger.info(`catalog sync: images of ${rewritten} products mirrored on retry`)
  }
  await images?.close()
  await run.recorder.ended(status, failure)
  // A run that got through clears an earlier 401/403 block. (The worker's lease release
  // clears current_run_id after this returns.)
  if (status === "succeeded") await run.storeState({ blocked_code: null, blocked_message: null, blocked_revision: null })
  await pruneChangeLog(run.container).catch((e) => logger.warn(`catalog sync: change-log cleanup failed: ${runErrorText(e)}`))
  return failure?.code ? { status, errorCode: failure.code, errorClass: failure.class } : { status }
}

/**
 * The brake stopped the run: nothing of what it asks about was written (a page's drops, or the
 * held removals, which stay held: the cursor already moved past them). The run that continues it
 * applies the admin's answer.
 */
export async function endPaused(run: RunEnding, pause: BrakePause): Promise<RunSyncResult> {
  run.logger.warn(`catalog sync: run ${run.state.runId} paused by the safety brake: ${pause.reasons.map((r) => r.message).join("; ")}`)
  await run.recorder.brake(await withTitles(run.container, pause))
  return endRun(run, "paused")
}

/** The run threw (its pages in flight already settled). */
export async function endAfterError(run: RunEnding, error: unknown): Promise<RunSyncResult> {
  const { logger, state } = run
  // A page's fenced write throws it through the workflow engine, which hands errors back as plain objects.
  if (error instanceof LostRunLockError || (error as { code?: unknown } | null)?.code === "lost_run_lock") {
    // Another run may own the state now: touch nothing of it; only this run's own row. The lock
    // lives on a PostgreSQL connection: a database restart loses it too, and that is the reason.
    await run.images?.close().catch(() => undefined)
    const restarted = await databaseRestartedSince(run.container, state.startedAt)
    const message = `${runErrorOf(error).message}${restarted !== false ? "; the database restarted or was unreachable meanwhile" : ""}`
    logger.error(message)
    await whenDatabaseAnswers(run, () =>
      run.recorder.ended("interrupted", { code: "lost_run_lock", message, class: restarted !== false ? "database" : null }, "interrupted")
    )
    return { status: "interrupted", errorCode: "lost_run_lock", ...(restarted !== false ? { errorClass: "database" as const } : {}) }
  }
  if (error instanceof InvalidApiKeyError || error instanceof PlanRequiredError) {
    await run.storeState({ blocked_code: error.code, blocked_message: error.message, blocked_revision: run.settingsRevision })
  }
  if (run.signal.aborted && (error as { name?: string })?.name === "AbortedError") return endRun(run, "interrupted")
  const kind = await failureKindOf(run, error)
  if (kind.class === "database") return endInterruptedByDatabase(run, error, kind)
  logger.error(`catalog sync run ${state.runId} failed: ${runErrorText(error, { withStack: true })}`)
  return endRun(run, "failed", error, kind)
}

/**
 * The failure's class; an unclear one (knex's "Transaction query already complete", which hides
 * the terminated connection behind it) is the database's when PostgreSQL restarted during the run
 * or does not answer now.
 */
async function failureKindOf(run: RunEnding, error: unknown): Promise<FailureKind> {
  const kind = classifyFailureKind(error)
  if (kind.class !== "internal") return kind
  const restarted = await databaseRestartedSince(run.container, run.state.startedAt)
  return restarted === false ? kind : { class: "database", rawCode: restarted === null ? "database_unreachable" : "database_restarted" }
}

/**
 * The run lost its database connection: it stops as interrupted with the true reason, and the
 * recovery loop resumes it from its stored cursor once the database answers (the cursor moved
 * only after a page committed, so the page in progress is written again).
 */
async function endInterruptedByDatabase(run: RunEnding, error: unknown, kind: FailureKind): Promise<RunSyncResult> {
  const code = kind.rawCode ?? "database_unavailable"
  const message = `The database connection was lost (${code}); the run resumes from its last stored page once the database answers: ${runErrorText(error)}`
  run.logger.warn(`catalog sync run ${run.state.runId} interrupted: ${message}`)
  run.state.phase = "interrupted"
  await run.images?.close().catch(() => undefined)
  await whenDatabaseAnswers(run, () => run.recorder.ended("interrupted", { code, message, class: "database" }, "interrupted"))
  return { status: "interrupted", errorCode: code, errorClass: "database" }
}

/** How long a run's end waits for the database to record it (a restart takes seconds). */
const RECORD_WAIT_MS = 60_000

/**
 * Records the run's end, trying again while the database is down. Given up after a while: the
 * row then stays "running" without its lock, which the recovery loop marks interrupted and resumes.
 */
async function whenDatabaseAnswers(run: RunEnding, record: () => Promise<void>): Promise<void> {
  const until = Date.now() + RECORD_WAIT_MS
  for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
    try {
      return await record()
    } catch (e) {
      if (Date.now() + delay > until) {
        run.logger.warn(`catalog sync: could not record the end of run ${run.state.runId}: ${runErrorText(e)}`)
        return
      }
      await new Promise((r) => setTimeout(r, delay))
    }
  }
}
