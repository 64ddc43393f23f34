// The one name and colour of every state the admin shows, for the sync (GET /status's `state`)
// and for a run (run-display-state.ts): the top bar's chip, the sync page's header badge, the
// product-list line, the last run card, the run history, the run page and the progress block all
// take their words and colour from this table, so one state cannot read two ways on two screens.
// A sync state and a run state of one meaning share one entry ("paused", "running", "failed").

/** The colours of @medusajs/ui's StatusBadge. */
export type StateColor = "green" | "red" | "blue" | "orange" | "grey" | "purple"

export type StateName = { label: string; color: StateColor }

export const STATE_NAMES = {
  // The sync's states.
  idle: { label: "Idle", color: "green" },
  running: { label: "Running", color: "blue" },
  resuming: { label: "Resuming", color: "orange" },
  stalled: { label: "Stalled", color: "red" },
  overdue: { label: "Not running: overdue", color: "red" },
  failed: { label: "Failed", color: "red" },
  // The chip ("key refused") and the notices ("refused this API key") use the same word.
  key_invalid: { label: "Key refused", color: "red" },
  plan_required: { label: "Plan required", color: "orange" },
  not_configured: { label: "Not configured", color: "grey" },
  disabled: { label: "Disabled", color: "grey" },
  // A run the safety brake stopped, waiting for the admin (the sync's state while it waits, too).
  paused: { label: "Paused: waiting for your answer", color: "orange" },
  // A run's states (run-display-state.ts).
  // The state only: what the queued run will do is its headline's (progressHeadline), not repeated here.
  queued: { label: "Queued", color: "grey" },
  confirmed: { label: "Confirmed by you", color: "purple" },
  discarded: { label: "Discarded by you", color: "purple" },
  continuing: { label: "Continuing after your answer", color: "blue" },
  interrupted: { label: "Interrupted", color: "orange" },
  succeeded: { label: "Succeeded", color: "green" },
  no_changes: { label: "No changes", color: "grey" },
  unknown: { label: "Unknown", color: "grey" },
} as const satisfies Record<string, StateName>

export type StateKey = keyof typeof STATE_NAMES

/** A state's name and colour (a fresh object: callers may spread it). */
export function stateName(key: StateKey): StateName {
  const { label, color } = STATE_NAMES[key]
  return { label, color }
}
