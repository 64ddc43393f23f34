// How a sync run ends: its run row (status, counts, error), mirrored images retried and closed,
// an earlier 401/403 block cleared by a run that got through, old change-log rows pruned. A run
// that lost its run lock touches nothing but its own row.
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { InvalidApiKeyError, PlanRequiredError } from "../catalog-client/errors"
import type { BrakePause } from "../sync/safety-brake"
import { runErrorOf, runErrorText } from "../sync/write-failures"
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

export async function endRun(run: RunEnding, status: RunStatus, error?: unknown): Promise<RunSyncResult> {
  const { images, logger } = run
  const failure = error === undefined ? undefined : runErrorOf(error)
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
  return failure?.code ? { status, errorCode: failure.code } : { status }
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
    // Another run may own the state now: touch nothing of it; only this run's own row.
    await run.images?.close()
    const message = runErrorOf(error).message
    logger.error(message)
    await run.recorder.ended("interrupted", { code: "lost_run_lock", message }, "interrupted")
    return { status: "interrupted", errorCode: "lost_run_lock" }
  }
  if (error instanceof InvalidApiKeyError || error instanceof PlanRequiredError) {
    await run.storeState({ blocked_code: error.code, blocked_message: error.message, blocked_revision: run.settingsRevision })
  }
  if (run.signal.aborted && (error as { name?: string })?.name === "AbortedError") return endRun(run, "interrupted")
  logger.error(`catalog sync run ${state.runId} failed: ${runErrorText(error, { withStack: true })}`)
  return endRun(run, "failed", error)
}
