// Pacing of a page's writes (pure): a sync bounded by the API has time between pages, and a page
// written in one burst takes the process and PostgreSQL from the shop's requests for that whole
// burst. The writer instead pauses between its statements, spreading the page's work over part of
// the time the run last waited for a page, so the shop's requests run in the gaps.
//
// What the budget is made of is measured, not assumed: the previous page's write (its work and its
// pauses) and how long the run then waited for the next page. That wait is what the API's pace
// (the rate limiter, the catalog's latency) left over; a writer slower than the catalog never
// waits, and then there is no pacing at all. Only a share of the slack is used, and the caller
// stops pausing once the next page has arrived, so pacing never holds the sync back from the API.

/** How the previous page's write went. */
export interface PageWriteRecord {
  /** Its work: the write's wall time less its pauses. */
  busyMs: number
  /** Its pauses. */
  pausedMs: number
  /** How long the run then waited for the next page (0 when it was already there). */
  waitedMs: number
}

/** What a page's write may take: its work (as the previous page's) spread over `spreadMs`. */
export interface PaceBudget {
  expectedBusyMs: number
  spreadMs: number
}

export interface PaceOptions {
  /** The share of the measured slack pacing may use (the rest is margin for a slower page). */
  slackShare: number
  /** Slack below this is noise (the next page was there, or nearly): no pacing. */
  minSlackMs: number
  /** No one pause is longer (a shopper's request never needs more; the next check comes soon). */
  maxPauseMs: number
  /** A pause due below this waits for the next pause point (a timer per statement would cost more than it gives). */
  minPauseMs: number
}

export const PACE_OPTIONS: PaceOptions = { slackShare: 0.75, minSlackMs: 50, maxPauseMs: 250, minPauseMs: 5 }

/**
 * The budget of the next page's write from the previous page's, or null: no pacing (no previous
 * page, or no slack: the writer, not the API, sets the sync's pace).
 */
export function paceBudget(previous: PageWriteRecord | null, options: PaceOptions = PACE_OPTIONS): PaceBudget | null {
  if (!previous || !(previous.busyMs > 0)) return null
  // Time the previous page spent paused was slack too: pacing used it.
  const slack = previous.pausedMs + previous.waitedMs
  if (!(slack >= options.minSlackMs)) return null
  return { expectedBusyMs: previous.busyMs, spreadMs: previous.busyMs + options.slackShare * slack }
}

/**
 * The pause due at a pause point, given the work and pauses of the page so far: pauses keep
 * pace with the work done (each ms of work earns its share of the slack), never more in all
 * than the budget's slack, never longer than maxPauseMs at once.
 */
export function pauseDue(budget: PaceBudget, progress: { busyMs: number; pausedMs: number }, options: PaceOptions = PACE_OPTIONS): number {
  const allowance = budget.spreadMs - budget.expectedBusyMs
  const done = Math.min(1, progress.busyMs / budget.expectedBusyMs)
  const earned = done * allowance - progress.pausedMs
  const left = allowance - progress.pausedMs
  const pause = Math.min(earned, left, options.maxPauseMs)
  return pause >= options.minPauseMs ? pause : 0
}
