// Pure: the run's state machine over the changes feed. One loop serves both phases:
// no cursor = full export (a "pass", which ends with a sweep), then the export's last
// cursor continues as the changes feed.
import { InvalidCursorError, PricingChangedError } from "../catalog-client/errors"
import { samePricing, type PricingParams } from "./settings"

export type Phase = "never" | "full_export" | "changes"
/** Why a run dropped its cursor and began a new full pass. */
export type RestartReason = "invalid_cursor" | "pricing_changed"

/** The columns of mcs_sync_state runSync reads. */
export interface SyncStateView {
  cursor: string | null
  cursor_pricing: PricingParams | null
  phase: string
  full_pass_id: string | null
}

export interface Position {
  /** null = start a full pass. */
  cursor: string | null
  /** Set while a pass that began without a cursor runs; it ends with a sweep. */
  fullPassId: string | null
}

/** At most this many restarts in one run, so a feed that keeps refusing cursors cannot loop forever. */
export const MAX_RESTARTS = 3

/**
 * What a resumed run (trigger "retry": after a crash, a restart, a shutdown or a transient
 * failure) knows about the run it continues: the full pass that run (or the run it continued)
 * had begun, or null when it never began one.
 */
export interface ResumeOf {
  passId: string | null
  /** The resume bookkeeping (src/queue/resume-bound.ts) the run keeps in its progress. */
  bookkeeping?: Record<string, unknown> | null
}

/**
 * Where a run starts. A fresh full run, a missing cursor, or a cursor made with other
 * pricing (rule 7: pricing is part of the cursor) starts a new pass; otherwise the
 * stored cursor continues, including a pass a previous run left unfinished.
 *
 * A resumed full run is not a fresh one: it continues from the stored cursor, keeping the
 * pass id so the sweep still happens at its end (a crash replays at most one page). It
 * starts a new pass only when the run it continues never began its pass (it died before
 * storing anything of it). When that pass has since ended (the state holds no pass), the
 * full resync it stood for is done and the run continues the changes feed.
 */
export function startPosition(
  state: SyncStateView | null,
  mode: "changes" | "full",
  pricing: PricingParams,
  newPassId: () => string,
  resume: ResumeOf | null = null
): Position & { reason: "full" | "first" | "pricing_changed" | "continue" | "resume" } {
  if (mode === "full" && !resume?.passId) return { cursor: null, fullPassId: newPassId(), reason: "full" }
  if (!state?.cursor) {
    // A resumed pass that stored no page yet keeps its id (products it saw stay seen).
    const keep = resume?.passId && state?.full_pass_id === resume.passId ? resume.passId : null
    return { cursor: null, fullPassId: keep ?? newPassId(), reason: keep ? "resume" : "first" }
  }
  if (!state.cursor_pricing || !samePricing(state.cursor_pricing, pricing)) {
    return { cursor: null, fullPassId: newPassId(), reason: "pricing_changed" }
  }
  const reason = resume?.passId && state.full_pass_id === resume.passId ? "resume" : "continue"
  return { cursor: state.cursor, fullPassId: state.full_pass_id, reason }
}

/**
 * What a run's catalog requests send. The shop asks only for costs; but a stored cursor made
 * before the shop's rules took markups over remembers the API's markup parameters, and a request
 * with another set would be refused (pricing_changed) and cost a full pass. So a run that
 * continues such a cursor sends its remembered set (prices are computed from costs either way);
 * the next pass from the start asks for costs only.
 */
export function requestPricingFor(
  state: Pick<SyncStateView, "cursor" | "cursor_pricing"> | null,
  mode: "changes" | "full",
  pricing: PricingParams,
  resume: ResumeOf | null = null
): PricingParams {
  const remembered = state?.cursor ? state.cursor_pricing : null
  if (!remembered || remembered.price_calculation !== pricing.price_calculation) return pricing
  if (mode === "full" && !resume?.passId) return pricing
  return {
    price_calculation: remembered.price_calculation,
    markup_percent: remembered.markup_percent ?? null,
    discount_percent: remembered.discount_percent ?? null,
    old_price_markup_percent: remembered.old_price_markup_percent ?? null,
  }
}

/** The feed refused our cursor: restart without it (rule 6). Other errors end the run. */
export function restartReason(error: unknown): RestartReason | null {
  if (error instanceof InvalidCursorError) return "invalid_cursor"
  if (error instanceof PricingChangedError) return "pricing_changed"
  const code = (error as { code?: unknown } | null)?.code
  return code === "invalid_cursor" || code === "pricing_changed" ? code : null
}

export function restartPosition(newPassId: () => string): Position {
  return { cursor: null, fullPassId: newPassId() }
}

export interface AfterPage {
  /** What to store in mcs_sync_state once the page's writes committed. */
  state: { cursor: string; cursor_pricing: PricingParams; phase: Phase; full_pass_id: string | null }
  /** The pass is complete: sweep products of the map not seen in it. */
  sweepPassId: string | null
  done: boolean
}

/** After a page commits: store its cursor (every page, empty and last ones included: rule 1). */
export function afterPage(position: Position, page: { nextCursor: string; hasMore: boolean }, pricing: PricingParams): AfterPage {
  const passEnds = !page.hasMore && position.fullPassId !== null
  return {
    state: {
      cursor: page.nextCursor,
      cursor_pricing: pricing,
      phase: position.fullPassId !== null && page.hasMore ? "full_export" : "changes",
      full_pass_id: passEnds ? null : position.fullPassId,
    },
    sweepPassId: passEnds ? position.fullPassId : null,
    done: !page.hasMore,
  }
}
