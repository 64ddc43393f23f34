// The sync page's "Last run" section (pure): which run it describes and what it is called. GET
// /status's `last_run` is the last *finished* run (succeeded, failed or interrupted). A newer run
// may be paused at the safety brake, waiting for the admin's answer, or going, or waiting to start;
// then the section is called what it is, the last finished run, and says what the newer run is
// (it once read "Last run: No changes" from an older run beside a pause that waited for an answer).
import { pausedForText, pausedRunOf } from "./brake"
import type { Run, SyncStatus } from "./types"

export type LastRunSection = {
  /** The last finished run, or null when none has finished. */
  run: Run | null
  /** "Last run" when it is the newest run; "Last finished run" when a newer one is paused, going or queued. */
  heading: "Last run" | "Last finished run"
  /** The newer run in words ("A newer run waits for your answer at the safety brake: it would remove 30 products."), else null. */
  newer: string | null
  /** What the section says without a finished run. */
  empty: string
}

function createdAt(run: Pick<Run, "created_at" | "started_at">): number | null {
  const iso = run.created_at ?? run.started_at
  const t = iso ? Date.parse(iso) : NaN
  return Number.isNaN(t) ? null : t
}

/** Whether `run` came after the last finished run (when either time is not known, it is taken as newer: it is not finished). */
function isNewer(run: Run, last: Run | null): boolean {
  if (!last) return true
  if (run.id === last.id) return false
  const a = createdAt(run)
  const b = createdAt(last)
  return a === null || b === null || a > b
}

export function lastRunSection(status: SyncStatus): LastRunSection {
  const last = status.last_run ?? null
  const section = (newer: string | null): LastRunSection => ({
    run: last,
    heading: newer ? "Last finished run" : "Last run",
    newer,
    empty: "No sync has finished yet.",
  })
  // A pause still waiting for the answer (its preview and the buttons are the brake panel); an
  // answered one waits no more: the run that carries the answer out is running, queued or finished.
  const paused = pausedRunOf(status)
  if (paused && !paused.run.brake_resolution && isNewer(paused.run, last))
    return section(`A newer run waits for your answer at the safety brake: ${pausedForText(paused)}.`)
  const live = status.running_run
  if (live && (live.status === "running" || live.status === "queued") && isNewer(live, last))
    return section(live.status === "queued" ? "A newer run waits to start." : "A newer run is going on.")
  return section(null)
}

/**
 * The section's link text: when the run finished ("2 h ago · 6 Dec 2026, 08:01"), said as
 * "finished …" beside a newer run; "Details" for a run without an end time.
 */
export function lastRunTime(section: Pick<LastRunSection, "run" | "newer">, relative: (iso: string) => string, dateTime: (iso: string) => string): string {
  const at = section.run?.finished_at
  if (!at) return "Details"
  return `${section.newer ? "finished " : ""}${relative(at)} · ${dateTime(at)}`
}
