// The bound on resuming interrupted work (pure). Crashes that make progress are resumed at once,
// however many there are; a loop of resumes that never moves the stored cursor (a run that dies
// at the same statement each time, or whose lock connection is always refused) backs off and
// then stops, leaving the work interrupted with RESUME_STALLED_CODE until a new run starts it
// (the next scheduled poll, or "Sync now").

/** Consecutive resumes without progress that are resumed at once (a crash of a resumed run before its first page is normal). */
export const FREE_STALLED_RESUMES = 3
/** After this many consecutive resumes without progress, the work is not resumed automatically. */
export const MAX_STALLED_RESUMES = 6
/** First backoff (doubling per further resume without progress). */
export const STALLED_RESUME_BACKOFF_MS = 30_000
/** The error code a run gets when its work is no longer resumed automatically. */
export const RESUME_STALLED_CODE = "resume_stalled"

/** Where the sync state stood: the stored cursor and the full pass in progress. */
export type ResumePoint = { cursor: string | null; pass: string | null }

/** What a resumed run carries in its progress, so the next resume can tell whether it moved. */
export type ResumeBookkeeping = {
  /** The state's position when this resume was queued. */
  resume_from: ResumePoint
  /** How many resumes in a row before this one made no progress. */
  stalled_resumes: number
}

export type ResumeDecision =
  { action: "resume"; bookkeeping: ResumeBookkeeping } | { action: "wait"; notBefore: number; stalled: number } | { action: "give_up"; stalled: number }

function readBookkeeping(progress: unknown): ResumeBookkeeping | null {
  const p = (progress ?? null) as Partial<ResumeBookkeeping> | null
  const from = p?.resume_from as Partial<ResumePoint> | undefined
  if (!from || typeof from !== "object") return null
  const cursor = typeof from.cursor === "string" ? from.cursor : null
  const pass = typeof from.pass === "string" ? from.pass : null
  const stalled = typeof p?.stalled_resumes === "number" && Number.isFinite(p.stalled_resumes) ? Math.max(0, Math.floor(p.stalled_resumes)) : 0
  return { resume_from: { cursor, pass }, stalled_resumes: stalled }
}

/** Backoff before the resume that follows `stalled` consecutive resumes without progress. */
export function stalledResumeDelayMs(stalled: number): number {
  if (stalled <= FREE_STALLED_RESUMES) return 0
  return STALLED_RESUME_BACKOFF_MS * 2 ** (stalled - FREE_STALLED_RESUMES - 1)
}

/**
 * Whether to resume the interrupted run `interrupted` now, later, or no more.
 * - A run that was not itself a resume (no bookkeeping), or a resume after which the stored
 *   position (cursor or pass) moved, made progress: resume at once, count reset to 0.
 * - A resume that left the position where it found it adds one to the count: resumed at once
 *   up to FREE_STALLED_RESUMES, then with exponential backoff counted from when it ended,
 *   and at MAX_STALLED_RESUMES not at all.
 */
export function decideResume(input: {
  interrupted: { progress?: unknown; finished_at?: Date | string | null; created_at?: Date | string | null }
  state: ResumePoint
  now: number
}): ResumeDecision {
  const previous = readBookkeeping(input.interrupted.progress)
  const here: ResumePoint = { cursor: input.state.cursor ?? null, pass: input.state.pass ?? null }
  const moved = !previous || previous.resume_from.cursor !== here.cursor || previous.resume_from.pass !== here.pass
  const stalled = moved ? 0 : previous.stalled_resumes + 1
  if (stalled >= MAX_STALLED_RESUMES) return { action: "give_up", stalled }
  const delay = stalledResumeDelayMs(stalled)
  if (delay > 0) {
    const endedAt = new Date((input.interrupted.finished_at ?? input.interrupted.created_at ?? input.now) as any).getTime()
    const notBefore = (Number.isFinite(endedAt) ? endedAt : input.now) + delay
    if (input.now < notBefore) return { action: "wait", notBefore, stalled }
  }
  return { action: "resume", bookkeeping: { resume_from: here, stalled_resumes: stalled } }
}

/** The message a run gets when its work is no longer resumed automatically. */
export function resumeStalledMessage(stalled: number, previous: { error_code?: string | null; error_message?: string | null }): string {
  const last = previous.error_code ? ` Last interruption: ${previous.error_code}${previous.error_message ? ` (${previous.error_message})` : ""}.` : ""
  return (
    `Resumed ${stalled} times in a row without storing a new cursor; not resumed automatically any more.${last} ` +
    `The next scheduled run or "Sync now" continues from the stored cursor.`
  )
}
