// The one name and colour of a run's state, for every admin screen (the top bar's chip, the
// product-list widget, the sync page, the run history, the run page, the product widget). Pure:
// it reads the stored run row, so two screens showing one run cannot call it two things.
//
// A run the safety brake paused keeps status "paused" in its row after the admin answers; the
// answer (brake_resolution) is what tells "waiting for your answer" from "you discarded". The
// run queued by the answer carries `after_brake` in its progress: while it goes it is
// "continuing after your answer", and once it ends it is judged like any other run.

import { STATE_NAMES, type StateColor } from "./state-names"

export type RunDisplayStateName =
  "queued" | "running" | "paused" | "confirmed" | "discarded" | "continuing" | "interrupted" | "failed" | "succeeded" | "no_changes" | "unknown"

/** The colours of @medusajs/ui's StatusBadge. */
export type RunDisplayColor = StateColor

export interface RunDisplayState {
  state: RunDisplayStateName
  label: string
  color: RunDisplayColor
  /** Only a run that is working moves (a pulsing dot, a ticking timer). */
  moving: boolean
}

/** The fields of a mcs_sync_run row (or its admin serialisation) the state reads. */
export interface RunForDisplay {
  status: string
  progress?: unknown
  brake_resolution?: unknown
  created?: number | null
  updated?: number | null
  stock_only?: number | null
  removed?: number | null
  swept?: number | null
  skipped?: number | null
}

// Names and colours from the one table every screen reads (state-names.ts).
const STATES: Record<RunDisplayStateName, Omit<RunDisplayState, "state">> = {
  queued: { ...STATE_NAMES.queued, moving: false },
  running: { ...STATE_NAMES.running, moving: true },
  paused: { ...STATE_NAMES.paused, moving: false },
  confirmed: { ...STATE_NAMES.confirmed, moving: false },
  discarded: { ...STATE_NAMES.discarded, moving: false },
  continuing: { ...STATE_NAMES.continuing, moving: true },
  interrupted: { ...STATE_NAMES.interrupted, moving: false },
  failed: { ...STATE_NAMES.failed, moving: false },
  succeeded: { ...STATE_NAMES.succeeded, moving: false },
  no_changes: { ...STATE_NAMES.no_changes, moving: false },
  unknown: { ...STATE_NAMES.unknown, moving: false },
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

const n = (value: number | null | undefined) => (typeof value === "number" && value > 0 ? value : 0)

/** Products the run wrote or refused: created, updated, stock only, removed, swept, rejected. */
export function runChangeCount(run: RunForDisplay): number {
  return n(run.created) + n(run.updated) + n(run.stock_only) + n(run.removed) + n(run.swept) + n(run.skipped)
}

/** The admin's answer to a paused run, when it has one. */
export function brakeAnswerOf(run: Pick<RunForDisplay, "brake_resolution">): "confirmed" | "discarded" | null {
  const action = record(run.brake_resolution).action
  return action === "confirmed" || action === "discarded" ? action : null
}

/** The paused run a run continues after the admin's answer, with that answer; null for any other run. */
export function continuesAnswer(run: Pick<RunForDisplay, "progress">): { paused_run_id: string; answer: "confirmed" | "discarded" | null } | null {
  const p = record(run.progress)
  if (typeof p.after_brake !== "string") return null
  return { paused_run_id: p.after_brake, answer: p.brake_answer === "confirmed" || p.brake_answer === "discarded" ? p.brake_answer : null }
}

export function runDisplayState(run: RunForDisplay): RunDisplayState {
  const name = stateName(run)
  const base = STATES[name]
  if (name === "continuing") {
    const answer = continuesAnswer(run)?.answer
    const label = answer ? `Continuing after your ${answer === "confirmed" ? "confirm" : "discard"}` : base.label
    return { state: name, ...base, label }
  }
  return { state: name, ...base }
}

function stateName(run: RunForDisplay): RunDisplayStateName {
  switch (run.status) {
    case "queued":
      return "queued"
    case "running":
      return continuesAnswer(run) ? "continuing" : "running"
    case "paused":
      return brakeAnswerOf(run) ?? "paused"
    case "interrupted":
      return "interrupted"
    case "failed":
      return "failed"
    case "succeeded":
      return runChangeCount(run) > 0 ? "succeeded" : "no_changes"
    default:
      return "unknown"
  }
}
