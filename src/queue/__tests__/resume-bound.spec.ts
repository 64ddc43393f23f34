// The bound on resuming interrupted work: progress resets it, a loop without progress backs off
// and then stops.
import { decideResume, FREE_STALLED_RESUMES, MAX_STALLED_RESUMES, STALLED_RESUME_BACKOFF_MS, stalledResumeDelayMs } from "../resume-bound"

const NOW = Date.parse("2026-01-01T12:00:00Z")
const at = (cursor: string | null, pass: string | null = "pass_1") => ({ cursor, pass })
const resumed = (from: { cursor: string | null; pass: string | null }, stalled: number, finishedAgoMs = 0) => ({
  progress: { phase: "interrupted", pass_id: "pass_1", resumed: true, resume_from: from, stalled_resumes: stalled },
  finished_at: new Date(NOW - finishedAgoMs),
})

describe("decideResume", () => {
  it("a run that was not a resume is resumed at once, recording where the state stands", () => {
    const d = decideResume({ interrupted: { progress: { phase: "changes", pass_id: "pass_1" } }, state: at("c5"), now: NOW })
    expect(d).toEqual({ action: "resume", bookkeeping: { resume_from: at("c5"), stalled_resumes: 0 } })
  })

  it("a resume that moved the cursor resets the count, however many crashes came before", () => {
    expect(decideResume({ interrupted: resumed(at("c5"), MAX_STALLED_RESUMES - 1), state: at("c6"), now: NOW })).toEqual({
      action: "resume",
      bookkeeping: { resume_from: at("c6"), stalled_resumes: 0 },
    })
    // A new pass (restart without a cursor) is progress too.
    expect(decideResume({ interrupted: resumed(at("c5"), 4), state: at(null, "pass_2"), now: NOW })).toMatchObject({ action: "resume" })
  })

  it("resumes without progress: the first few at once, then exponential backoff from when the run ended", () => {
    for (let stalled = 1; stalled <= FREE_STALLED_RESUMES; stalled++) {
      expect(decideResume({ interrupted: resumed(at("c5"), stalled - 1), state: at("c5"), now: NOW })).toEqual({
        action: "resume",
        bookkeeping: { resume_from: at("c5"), stalled_resumes: stalled },
      })
    }
    const stalled = FREE_STALLED_RESUMES + 1
    expect(stalledResumeDelayMs(stalled)).toBe(STALLED_RESUME_BACKOFF_MS)
    expect(stalledResumeDelayMs(stalled + 1)).toBe(2 * STALLED_RESUME_BACKOFF_MS)
    expect(decideResume({ interrupted: resumed(at("c5"), stalled - 1, 1_000), state: at("c5"), now: NOW })).toEqual({
      action: "wait",
      notBefore: NOW - 1_000 + STALLED_RESUME_BACKOFF_MS,
      stalled,
    })
    expect(decideResume({ interrupted: resumed(at("c5"), stalled - 1, STALLED_RESUME_BACKOFF_MS), state: at("c5"), now: NOW })).toEqual({
      action: "resume",
      bookkeeping: { resume_from: at("c5"), stalled_resumes: stalled },
    })
    // A pass that died before its first page (no cursor) and again, the same.
    expect(decideResume({ interrupted: resumed(at(null), 0), state: at(null), now: NOW })).toMatchObject({
      action: "resume",
      bookkeeping: { stalled_resumes: 1 },
    })
  })

  it(`stops after ${MAX_STALLED_RESUMES} resumes in a row without progress, even long after`, () => {
    expect(decideResume({ interrupted: resumed(at("c5"), MAX_STALLED_RESUMES - 1, 86_400_000), state: at("c5"), now: NOW })).toEqual({
      action: "give_up",
      stalled: MAX_STALLED_RESUMES,
    })
  })
})
