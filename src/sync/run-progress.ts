// The one progress model: a run's stored record (and the sync state's block) turned into what
// every admin screen shows of it (the top bar's chip, the product-list widget, the sync page,
// the run page). Pure: the route passes the rows and `now`; the screens only format the view,
// so they cannot disagree on a figure.
//
// Counts: `read` is what the catalog sent (pages received, in flight included), `written` what
// committed (whole pages, plus products of long pages whose write chunk committed), so written
// never passes read. The created / updated / removed counts are those of written pages only.

import { runDisplayState, type RunDisplayState } from "./run-display-state"

/** How a run looks: only "running" moves (the dot, the ticking ETA). */
export type ProgressLook = "running" | "waiting" | "blocked" | "paused" | "answered" | "done" | "failed" | "interrupted"

/** The fields of a mcs_sync_run row the model reads (dates as Date or ISO text). */
export interface RunForProgress {
  id: string
  mode: string
  status: string
  trigger?: string | null
  pages?: number | null
  items_seen?: number | null
  created?: number | null
  updated?: number | null
  stock_only?: number | null
  unchanged?: number | null
  removed?: number | null
  skipped?: number | null
  swept?: number | null
  started_at?: Date | string | null
  finished_at?: Date | string | null
  /** When the row's figures were last stored: the instant the rate is measured at. */
  updated_at?: Date | string | null
  error_code?: string | null
  progress?: unknown
  /** The admin's answer to a paused run (run-display-state.ts). */
  brake_resolution?: unknown
}

export interface ProgressSource {
  run: RunForProgress | null
  /** The sync state's 401/403 block for the current settings (the key or plan refused), else null. */
  blocked: { code: string | null } | null
  now: number
  /**
   * The catalog's expected size as the shop knows it now (src/sync-run/expected-total.ts), for a
   * full pass that has not stored its own yet (its first moments): a previous pass knows the size.
   */
  expected?: { total: number | null; source: string | null } | null
  /** false once no key is saved (a disconnect): a run's end is no news then, and the chip does not show it. */
  configured?: boolean
}

export interface ProgressView {
  run_id: string
  mode: string
  status: string
  trigger: string | null
  look: ProgressLook
  /** The run's one name and colour, as every screen shows it (run-display-state.ts). */
  display: RunDisplayState
  phase: string | null
  /** Products the catalog sent to this run so far (rejected cards included). */
  read: number
  /** Products whose write committed; never more than `read`. */
  written: number
  /** The catalog's expected size for a full pass, else null (a changes run, a first sync). */
  total: number | null
  total_source: string | null
  /** The estimate this running pass has read past (the catalog grew since it was taken), else null; `total` is then null. */
  outgrown_total: number | null
  /** written of total, floored; at most 99 while the run goes; 100 once it succeeded; null without a total. */
  percent: number | null
  pages: number
  counts: { created: number; updated: number; stock_only: number; unchanged: number; removed: number; rejected: number; swept: number }
  /** Products written per minute since this run's first page arrived; null until it has a basis. */
  rate_per_minute: number | null
  /** Time left at `now`, from that rate; null until it has a basis, and once the run stopped moving. */
  eta_ms: number | null
  started_at: string | null
  finished_at: string | null
  /** Elapsed from the start to the end (or to `now`). */
  elapsed_ms: number | null
  /** The run ended within ENDED_SHOWN_MS: the chip still shows its end ("100 % · succeeded"). */
  ended_recently: boolean
  error_code: string | null
  blocked_code: string | null
}

/** A rate before this much work time and one written page would be noise (setup, the first page's wait). */
export const ETA_BASIS_MS = 5_000
/** How long a finished run's end stays in the top bar's chip. */
export const ENDED_SHOWN_MS = 120_000

const ENDED = new Set(["succeeded", "failed", "interrupted"])

function time(value: Date | string | null | undefined): number | null {
  if (value === null || value === undefined) return null
  const t = value instanceof Date ? value.getTime() : Date.parse(value)
  return Number.isNaN(t) ? null : t
}

function iso(value: Date | string | null | undefined): string | null {
  const t = time(value)
  return t === null ? null : new Date(t).toISOString()
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.trunc(value) : 0
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

/** Whether the run, in this phase, reads the whole catalog (and so can be measured against its size). */
export function measuresAgainstTotal(mode: string, progress: Record<string, unknown>): boolean {
  // A reprice goes over every stored cost, counted before its first batch.
  if (mode === "reprice") return true
  const phase = typeof progress.phase === "string" ? progress.phase : null
  if (phase === "full_export" || phase === "sweep") return true
  if (phase === "changes") return false
  return typeof progress.pass_id === "string" || mode === "full"
}

/** Floor of done of total, at most 99 until the run succeeded; null without a usable total. */
export function percentOf(written: number, total: number | null, succeeded: boolean): number | null {
  if (succeeded) return 100
  if (total === null || !Number.isFinite(total) || total <= 0) return null
  return Math.min(99, Math.floor((Math.max(0, written) * 100) / total))
}

function lookOf(run: RunForProgress, blocked: ProgressSource["blocked"]): ProgressLook {
  if (run.status === "succeeded") return "done"
  // A refused key or plan stops the work whatever the row says: nothing moves until the settings change.
  if (blocked) return "blocked"
  if (run.status === "queued") return "waiting"
  // An answered pause is over: its answer ended it, and the run it queued carries on.
  if (run.status === "paused") return run.brake_resolution ? "answered" : "paused"
  if (run.status === "failed") return "failed"
  if (run.status === "interrupted") return "interrupted"
  return "running"
}

export function progressView(source: ProgressSource): ProgressView | null {
  const { run, now } = source
  if (!run) return null
  const p = record(run.progress)
  const look = lookOf(run, source.blocked)
  const succeeded = look === "done"
  const seen = count(run.items_seen)
  // Runs recorded before items_read existed read what their committed pages hold.
  const read = Math.max(count(p.items_read), seen)
  const written = succeeded ? read : Math.min(read, Math.max(seen, count(p.items_done)))
  const measured = measuresAgainstTotal(run.mode, p)
  const stored = count(p.expected_total)
  const expected = stored > 0 ? stored : count(source.expected?.total)
  const expectedSource = stored > 0 ? p.expected_total_source : source.expected?.source
  const estimate = measured && expected > 0 ? expected : null
  // The expected size is an estimate (the last full pass's size, say): a pass that has read more
  // than it, or all of it with the catalog saying more pages follow, shows the catalog has grown,
  // and "1,000 of 728 (99 %)" or "800 of 800 (99 %)" would be false. Until the pass ends its size
  // is not known.
  const moreToRead = p.more_to_read === true
  const outgrown = !succeeded && estimate !== null && (read > estimate || (read >= estimate && moreToRead)) ? estimate : null
  // Its last page read (the catalog said none follows): the catalog's size is what the pass read,
  // fewer than the estimate when the catalog shrank ("1,180 of 1,450" would be false).
  const allRead = estimate !== null && p.more_to_read === false && read > 0 && read < estimate ? read : null
  const total = succeeded ? written : outgrown === null ? (allRead ?? estimate) : null
  const percent = percentOf(written, total, succeeded)

  const started = time(run.started_at)
  const finished = time(run.finished_at)
  const elapsed = started === null ? null : Math.max(0, (finished ?? now) - started)

  // The rate of this run only, from its first page (setup and reference reads excluded) to the
  // moment the written figure was stored; shown once a page is written and the basis is long enough.
  const basisStart = time(typeof p.reading_since === "string" ? p.reading_since : null) ?? started
  const figuresAt = time(run.updated_at) ?? now
  const basisMs = basisStart === null ? 0 : figuresAt - basisStart
  const hasBasis = count(run.pages) >= 1 && written > 0 && basisMs >= ETA_BASIS_MS
  const rate = hasBasis ? (written * 60_000) / basisMs : null
  let eta: number | null = null
  if (look === "running" && rate !== null && total !== null && percent !== null) {
    eta = Math.max(0, ((total - written) / rate) * 60_000 - Math.max(0, now - figuresAt))
  }

  return {
    run_id: run.id,
    mode: run.mode,
    status: run.status,
    trigger: run.trigger ?? null,
    look,
    display: runDisplayState(run),
    phase: typeof p.phase === "string" ? p.phase : null,
    read,
    written,
    total,
    total_source: total !== null && !succeeded && typeof expectedSource === "string" ? expectedSource : null,
    outgrown_total: outgrown,
    percent,
    pages: count(run.pages),
    counts: {
      created: count(run.created),
      updated: count(run.updated),
      stock_only: count(run.stock_only),
      unchanged: count(run.unchanged),
      removed: count(run.removed),
      rejected: count(run.skipped),
      swept: count(run.swept),
    },
    rate_per_minute: rate,
    eta_ms: eta,
    started_at: iso(run.started_at),
    finished_at: iso(run.finished_at),
    elapsed_ms: elapsed,
    ended_recently: source.configured !== false && ENDED.has(run.status) && finished !== null && now - finished < ENDED_SHOWN_MS,
    error_code: run.error_code ?? null,
    blocked_code: look === "blocked" ? (source.blocked?.code ?? null) : null,
  }
}
