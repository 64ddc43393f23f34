import { continuesAnswer, runDisplayState, type RunForDisplay } from "../../sync/run-display-state"
import { STATE_NAMES, type StateColor, type StateName } from "../../sync/state-names"
import { expiredAtOf, planBlockedText } from "./plan-words"
import type { AccountInfo, SyncState, SyncStatus } from "./types"

// Badge colours of @medusajs/ui's StatusBadge / Badge.
export type BadgeColor = StateColor
export type BadgeSpec = StateName

// The sync's states, named from the one table every screen reads (src/sync/state-names.ts).
const STATE_BADGES: Record<SyncState, BadgeSpec> = {
  idle: STATE_NAMES.idle,
  paused: STATE_NAMES.paused,
  running: STATE_NAMES.running,
  resuming: STATE_NAMES.resuming,
  stalled: STATE_NAMES.stalled,
  overdue: STATE_NAMES.overdue,
  failed: STATE_NAMES.failed,
  key_invalid: STATE_NAMES.key_invalid,
  plan_required: STATE_NAMES.plan_required,
  not_configured: STATE_NAMES.not_configured,
  disabled: STATE_NAMES.disabled,
}

export function stateBadge(state: string | null | undefined): BadgeSpec {
  const known = STATE_BADGES[state as SyncState]
  if (known) return { label: known.label, color: known.color }
  return { label: state ? humanize(state) : "Unknown", color: "grey" }
}

/** A run's one name and colour (src/sync/run-display-state.ts), as a badge: the same on every screen. */
export function runBadge(run: RunForDisplay): BadgeSpec {
  const { label, color } = runDisplayState(run)
  return { label, color }
}

const TRIGGERS: Record<string, string> = {
  schedule: "Scheduled",
  manual: "Manual",
  settings: "Settings change",
  rules_changed: "Pricing rules changed",
  retry: "Retry",
}

/** A run that continues the admin's answer to a paused run says so (its trigger is "retry"), from its queueing to its end. */
export function triggerLabel(trigger: string | null | undefined, run?: { progress?: unknown } | null): string {
  const after = run ? continuesAnswer(run) : null
  if (after) return after.answer === "confirmed" ? "After your confirm" : after.answer === "discarded" ? "After your discard" : "After your answer"
  return (trigger && TRIGGERS[trigger]) || (trigger ? humanize(trigger) : "—")
}

/** "Confirmed by ann@shop.ua, 28 Nov 2026, 05:10" style: the admin's answer to a paused run, or null. */
export function brakeAnswerText(
  resolution: { action?: string; user_id?: string | null; at?: string } | null | undefined,
  who: string | null,
  when: (iso: string) => string
): string | null {
  if (!resolution?.action) return null
  const verb = resolution.action === "confirmed" ? "Confirmed" : "Discarded"
  return `${verb}${who ? ` by ${who}` : resolution.user_id ? ` by user ${resolution.user_id}` : ""}${resolution.at ? `, ${when(resolution.at)}` : ""}`
}

const PHASES: Record<string, string> = {
  never: "Not started",
  queued: "Waiting to start",
  starting: "Starting",
  done: "Done",
  failed: "Failed",
  interrupted: "Interrupted",
  paused: "Paused by the safety brake",
  reprice: "Reprice",
  full_export: "Full export",
  changes: "Changes feed",
  sweep: "Sweep",
  setup: "Setup",
  reference_data: "Reference data",
}

export function phaseLabel(phase: string | null | undefined): string {
  return (phase && PHASES[phase]) || (phase ? humanize(phase) : "—")
}

export function modeLabel(mode: string | null | undefined): string {
  return mode === "full" ? "Full resync" : mode === "changes" ? "Changes" : mode === "reprice" ? "Reprice (no API requests)" : mode ? humanize(mode) : "—"
}

/** "key_invalid" -> "Key invalid". */
export function humanize(code: string): string {
  const words = code.replace(/[_-]+/g, " ").trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** A plan is "expiring" inside 7 days and "expired" after its date; null expiry is unlimited. */
export function planExpiry(expiresAt: string | null | undefined, now: number = Date.now()): "unlimited" | "active" | "expiring" | "expired" {
  if (!expiresAt) return "unlimited"
  const time = Date.parse(expiresAt)
  if (Number.isNaN(time)) return "active"
  if (time <= now) return "expired"
  return time - now < 7 * 86_400_000 ? "expiring" : "active"
}

/** Runs still going (or about to be resumed) need fast polling; a quiet widget polls slowly. */
export function statusPollMs(status: Pick<SyncStatus, "state" | "running_run"> | undefined): number {
  if (status && (status.state === "running" || status.state === "resuming" || status.running_run)) return 2000
  return 15000
}

/**
 * Why "Sync now" and "Full resync" cannot start a run, or null when they can (a running run is
 * shown by the progress itself). A refused key or plan would fail any run at once; a paused run
 * holds every new run until the admin answers it.
 */
export function syncStartRefusal(status: (Pick<SyncStatus, "state"> & Partial<Pick<SyncStatus, "account">>) | undefined): string | null {
  switch (status?.state) {
    case "not_configured":
      return "Connect the catalog in settings first."
    case "disabled":
      return "The sync is switched off in settings."
    case "key_invalid":
      return "The catalog refused the API key: save a working key in settings first."
    case "plan_required":
      // The one wording of a refused plan (plan-words.ts), as the notice and the summary say it.
      return planBlockedText(expiredAtOf(status.account))
    case "paused":
      return "A run is waiting for your answer: confirm or discard it first."
    default:
      return null
  }
}

/** The "Next run" line: never a time while nothing will run at it. */
export function nextRunText(status: Pick<SyncStatus, "state" | "next_run_at">, relative: (iso: string) => string): string {
  if (status.state === "paused") return "After your answer to the paused run"
  if (status.state === "disabled") return "Schedule off"
  if (status.state === "key_invalid" || status.state === "plan_required") return "None until the settings are fixed"
  return status.next_run_at ? relative(status.next_run_at) : "—"
}
