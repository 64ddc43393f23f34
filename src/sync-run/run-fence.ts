// What a run needs from the run lock it holds: the run defines it, the queue's lock implements it
// (src/queue/run-liveness.ts), so the run loop does not depend on the queue.

export class LostRunLockError extends Error {
  readonly code = "lost_run_lock"
  constructor(runId: string, why: string) {
    super(`catalog sync run ${runId} no longer holds the run lock (${why}); it stops without writing`)
    this.name = "LostRunLockError"
  }
}

/** What runSync needs from a held run lock. */
export interface RunFence {
  /** Resolves while this run still holds the lock; throws LostRunLockError otherwise. */
  check(): Promise<void>
  /** Updates the state row only while this run holds the lock; throws LostRunLockError otherwise. */
  updateState(stateId: string, patch: Record<string, unknown>): Promise<void>
}
