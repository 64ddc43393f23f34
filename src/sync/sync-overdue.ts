// Pure: whether a configured shop's sync has stopped happening. A schedule lost in Redis, a
// worker that never starts, a queue stuck on a dead job: whatever the cause, the symptom is the
// same, no run started for longer than the schedule allows. Two poll intervals leave room for one
// late or skipped poll before the shop owner is told.

/** How many poll intervals without a run make the sync overdue. */
export const OVERDUE_INTERVALS = 2

export interface OverdueInput {
  /** Configured, enabled and not blocked by a refused key (those have their own state and alert). */
  expectedToRun: boolean
  /** A run is queued or running, or the brake's pause waits for the admin. */
  busy: boolean
  /** When the latest run was created (any status), or null when none ever was. */
  lastRunAt: Date | null
  /** The schedule's interval in ms. */
  pollEveryMs: number
  now: number
}

export type Overdue = { overdue: false } | { overdue: true; since: Date; thresholdMs: number }

export function syncOverdue(input: OverdueInput): Overdue {
  if (!input.expectedToRun || input.busy || !input.lastRunAt) return { overdue: false }
  const thresholdMs = OVERDUE_INTERVALS * input.pollEveryMs
  if (input.now - input.lastRunAt.getTime() <= thresholdMs) return { overdue: false }
  return { overdue: true, since: input.lastRunAt, thresholdMs }
}
