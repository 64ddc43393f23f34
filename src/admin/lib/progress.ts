// A running (or finished) run's progress as the admin shows it: done of the expected total,
// percent, rate, ETA and the phase in words. Pure: the caller passes `now`, so a component
// that re-renders every second gets a ticking timer and a fresh ETA from the same figures.
import { formatCount, formatDuration } from "./format"

export type TotalSource = "last_full_pass" | "product_map" | "account"

export type ProgressInput = {
  mode: "changes" | "full" | "reprice"
  status: string
  /** starting | setup | reference_data | full_export | changes | sweep | done | ... */
  phase: string | null
  /** Products read so far (inside the current page when the backend reports it). */
  done: number
  pages: number
  /** The catalog's expected size, when known; only a full pass is measured against it. */
  expectedTotal: number | null
  totalSource?: TotalSource | null
  startedAt: string | null
  finishedAt?: string | null
  now: number
  /** Changes found so far (created + updated + stock only + removed), for a changes run. */
  changesFound?: number
}

export type ProgressView = {
  done: number
  /** null: unknown (a changes feed has no size; a first sync has nothing to measure by). */
  total: number | null
  /** 0 to 100; null when there is no total. 100 only once the run has succeeded. */
  percent: number | null
  /** Products per minute, null before there is anything to measure. */
  ratePerMinute: number | null
  /** Time left, null when unknown (no total or no rate yet). */
  etaMs: number | null
  elapsedMs: number | null
  phaseText: string
  /** One line: "400 of 1,500 products (26 %) · page 2 · 800/min · about 1 min 05 s left". */
  summary: string
}

const PHASE_WORDS: Record<string, string> = {
  queued: "Waiting to start",
  paused: "Paused by the safety brake: waiting for your answer",
  starting: "Starting",
  setup: "Preparing the shop (sales channel, stock location, price list)",
  reference_data: "Reading categories and brands",
  full_export: "Reading the whole catalog",
  changes: "Reading what changed since the last sync",
  sweep: "Removing products the catalog no longer has",
  done: "Finished",
  failed: "Failed",
  interrupted: "Interrupted",
}

/** The phase in words, e.g. "Reading the whole catalog". */
export function phaseInWords(phase: string | null | undefined, status?: string | null): string {
  if (status === "queued") return PHASE_WORDS.queued
  if (status === "paused") return PHASE_WORDS.paused
  if (status === "succeeded") return PHASE_WORDS.done
  if (status === "failed" || status === "interrupted") return PHASE_WORDS[status]
  if (!phase) return PHASE_WORDS.starting
  return PHASE_WORDS[phase] ?? phase.replace(/[_-]+/g, " ")
}

function time(iso: string | null | undefined): number | null {
  if (!iso) return null
  const t = Date.parse(iso)
  return Number.isNaN(t) ? null : t
}

/** Whether a run in this phase reads the whole catalog (and can be measured against its size). */
export function isFullPass(input: Pick<ProgressInput, "mode" | "phase">): boolean {
  // A reprice goes over every stored cost: measured against their count when the run reports it.
  if (input.mode === "reprice") return true
  if (input.phase === "full_export" || input.phase === "sweep") return true
  if (input.phase === "changes") return false
  return input.mode === "full"
}

/**
 * Percent of `total` done: floor, so it never rounds up to a finished-looking 100 while a run
 * goes; capped at 99 until the run has succeeded (the catalog may have grown past the
 * estimate), and at 100 always. Non-decreasing in `done` for a fixed total.
 */
export function percentDone(done: number, total: number | null, succeeded = false): number | null {
  if (succeeded) return 100
  if (total === null || !Number.isFinite(total) || total <= 0) return null
  const safeDone = Math.max(0, Number.isFinite(done) ? done : 0)
  return Math.min(99, Math.floor((safeDone * 100) / total))
}

export function computeProgress(input: ProgressInput): ProgressView {
  const succeeded = input.status === "succeeded"
  const start = time(input.startedAt)
  const end = time(input.finishedAt) ?? input.now
  const elapsedMs = start === null ? null : Math.max(0, end - start)
  const done = Math.max(0, Math.trunc(input.done || 0))
  const measurable = isFullPass(input)
  const total = measurable && input.expectedTotal && input.expectedTotal > 0 ? input.expectedTotal : succeeded ? done : null
  const percent = percentDone(done, total, succeeded)
  // A rate needs a second of work and one product: before that it would be noise.
  const ratePerMinute = elapsedMs !== null && elapsedMs >= 1000 && done > 0 ? (done * 60_000) / elapsedMs : null
  let etaMs: number | null = null
  if (!succeeded && total !== null && ratePerMinute !== null && ratePerMinute > 0) {
    etaMs = (Math.max(0, total - done) / ratePerMinute) * 60_000
  } else if (succeeded) etaMs = 0
  const phaseText = phaseInWords(input.phase, input.status)

  const parts: string[] = []
  if (measurable || succeeded) {
    parts.push(total !== null ? `${formatCount(done)} of ${formatCount(total)} products${percent !== null ? ` (${percent} %)` : ""}` : `${formatCount(done)} products read, total not known yet`)
  } else {
    parts.push(`${formatCount(done)} changes read${input.changesFound !== undefined ? `, ${formatCount(input.changesFound)} applied so far` : ""}`)
  }
  parts.push(`page ${formatCount(input.pages)}`)
  if (ratePerMinute !== null) parts.push(`${formatCount(Math.round(ratePerMinute))}/min`)
  if (!succeeded) parts.push(etaMs !== null ? `about ${formatDuration(etaMs)} left` : "time left not known yet")
  return { done, total, percent, ratePerMinute, etaMs, elapsedMs, phaseText, summary: parts.join(" · ") }
}

/** The figures of a run record as the status API returns them (see types.ts). */
export function progressOfRun(
  run: {
    mode: "changes" | "full" | "reprice"
    status: string
    pages: number
    items_seen: number
    created?: number
    updated?: number
    stock_only?: number
    removed?: number
    started_at: string | null
    finished_at: string | null
    progress?: { phase?: unknown; items_done?: unknown; expected_total?: unknown; expected_total_source?: unknown } | null
  },
  opts: { now: number; phase?: string | null; expectedTotal?: number | null; totalSource?: TotalSource | null }
): ProgressView {
  const p = run.progress ?? {}
  // items_done: products done inside the current page (the wiring phase adds it); else whole pages.
  const itemsDone = typeof p.items_done === "number" && p.items_done > run.items_seen ? p.items_done : run.items_seen
  const runTotal = typeof p.expected_total === "number" ? p.expected_total : null
  return computeProgress({
    mode: run.mode,
    status: run.status,
    phase: (typeof p.phase === "string" ? p.phase : null) ?? opts.phase ?? null,
    done: itemsDone,
    pages: run.pages,
    expectedTotal: runTotal ?? opts.expectedTotal ?? null,
    totalSource: (typeof p.expected_total_source === "string" ? (p.expected_total_source as TotalSource) : null) ?? opts.totalSource ?? null,
    startedAt: run.started_at,
    finishedAt: run.finished_at,
    now: opts.now,
    changesFound: (run.created ?? 0) + (run.updated ?? 0) + (run.stock_only ?? 0) + (run.removed ?? 0),
  })
}
