// The state of one sync run that its parts share (run-sync.ts): what the run row records (counts,
// rejected items, progress) and where the run is in the feed. One object, passed to each part, so
// what a part changes is visible in its signature instead of in a closure.
import type { Omitted } from "../sync/change-log-policy"
import type { Position, ResumeOf } from "../sync/run-state"
import { emptyCounts, type RunCounts, type RunRejectedItem } from "./counts"
import type { ExpectedTotal } from "./expected-total"

export interface SyncRunState {
  readonly runId: string
  readonly mode: "changes" | "full"
  readonly startedAt: Date
  counts: RunCounts
  /** Rejected cards and dropped parts kept on the run row (at most MAX_REJECTED_ON_RUN). */
  rejected: RunRejectedItem[]
  /** What the admin's progress shows the run doing. */
  phase: string
  /** Full passes begun again after a refused cursor. */
  restarts: number
  /**
   * The pass this run works in (inherited when it resumes one): a run that continues this one
   * after a crash continues that pass, keeping its id so the sweep still happens.
   */
  passId: string | null
  /** Kept in the progress so the next resume can tell whether this one moved the cursor. */
  readonly resumeOf: Record<string, unknown>
  /** Products done, as the admin's progress reads it. */
  itemsDone: number
  /**
   * Products the catalog sent (pages in flight included) and when its first page came: the
   * progress model's read count and the start of the rate behind the ETA (src/sync/run-progress.ts).
   */
  itemsRead: number
  readingSince: string | null
  /** Whether the catalog said more pages follow the last one read (null before the first). */
  moreToRead: boolean | null
  /** The expected size of a full pass (a percent and an ETA for the admin), when known. */
  expected: ExpectedTotal | null
  /** Changes the change log left without a row (its cap). */
  omitted: Omitted
  /** The cursor and full pass the next page is read at. */
  position: Position
}

export function newSyncRunState(input: { runId: string; mode: "changes" | "full"; resume?: ResumeOf | null }, startedAt: Date): SyncRunState {
  return {
    runId: input.runId,
    mode: input.mode,
    startedAt,
    counts: emptyCounts(),
    rejected: [],
    phase: "starting",
    restarts: 0,
    passId: input.resume?.passId ?? null,
    resumeOf: input.resume ? { resumed: true, ...(input.resume.bookkeeping ?? {}) } : {},
    itemsDone: 0,
    itemsRead: 0,
    readingSince: null,
    moreToRead: null,
    expected: null,
    omitted: {},
    position: { cursor: null, fullPassId: null },
  }
}

/** The run row's progress column. */
export function progressOf(state: SyncRunState): Record<string, unknown> {
  return {
    phase: state.phase,
    restarts: state.restarts,
    pass_id: state.passId,
    items_done: state.itemsDone,
    items_read: state.itemsRead,
    reading_since: state.readingSince,
    ...(state.moreToRead !== null ? { more_to_read: state.moreToRead } : {}),
    ...(state.expected ? { expected_total: state.expected.total, expected_total_source: state.expected.source } : {}),
    ...(Object.keys(state.omitted).length ? { change_log_omitted: state.omitted } : {}),
    ...state.resumeOf,
  }
}
