// The run page's header (pure): what the run is (mode, trigger, when) and, in one line, what it
// did, as Medusa's own detail pages open with the record's state and summary.
import { runDidText } from "./progress"
import { modeLabel, triggerLabel } from "./status"
import type { Run } from "./types"

/** "Changes · Scheduled · started 6 Dec 2026, 08:08". */
export function runSubtitle(run: Run, when: (iso: string) => string): string {
  const started = run.started_at ?? run.created_at ?? null
  return [modeLabel(run.mode), triggerLabel(run.trigger, run), started ? `started ${when(started)}` : null].filter(Boolean).join(" · ")
}

/** What a succeeded or interrupted run did, in one line; null for any other. */
export function runHeadline(run: Run): string | null {
  switch (run.status) {
    case "succeeded": {
      const did = runDidText(run)
      return did === "no changes" ? "No product changed" : capitalize(did)
    }
    case "interrupted": {
      const did = runDidText(run)
      return did === "no changes" ? "Interrupted before it changed a product" : `Interrupted after ${did}`
    }
    default:
      // The header says the rest in full: a failed run's error, a pause's outcome, a live run's progress.
      return null
  }
}

/** The first letter upper-cased, as a headline starts. */
function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
