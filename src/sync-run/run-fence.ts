// What a run needs from the run lock it holds: the run defines it, the queue's lock implements it
// (src/queue/run-liveness.ts), so the run loop does not depend on the queue.

import type { WriteFence } from "../bulk-write/write-fence"

// One error for a lost lock, whether the run's own check or a page's fenced write found it.
export { LostRunLockError } from "../bulk-write/write-fence"

/** What runSync needs from a held run lock. */
export interface RunFence {
  /** Resolves while this run still holds the lock; throws LostRunLockError otherwise. */
  check(): Promise<void>
  /** Updates the state row only while this run holds the lock; throws LostRunLockError otherwise. */
  updateState(stateId: string, patch: Record<string, unknown>): Promise<void>
  /** What the run's page writes are fenced by, inside their transactions (bulk-write/write-fence.ts); absent: unfenced. */
  writeFence?(): WriteFence | null
}
