// The words of the one progress view (GET /admin/catalog-sync/progress, built on the server by
// src/sync/run-progress.ts). Every screen (top bar chip, product-list widget, sync page, run
// page) formats the same view with these functions, so they show the same figures. Pure: the
// caller passes `now` and when the view arrived, so the timer and the ETA tick between polls.
import { modeLabel, stateBadge, type BadgeColor, type BadgeSpec } from "./status"
import type { Run, SyncStatus } from "./types"
import type { ProgressLook, ProgressView } from "../../sync/run-progress"
import type { QuotaToday } from "../../sync/requests-today"
import { formatCount, formatCountOf, formatDuration } from "./format"
import { planRefusalPhrase } from "./plan-words"

export type { ProgressLook, ProgressView, QuotaToday }

/** GET /admin/catalog-sync/progress. */
export type ProgressAnswer = { progress: ProgressView | null; requests_today: QuotaToday | null; as_of: string }

const PHASE_WORDS: Record<string, string> = {
  // A run queued to continue another (after an answer, a resume) keeps this phase until its worker starts it.
  queued: "Waiting to start",
  starting: "Starting",
  setup: "Preparing the shop (sales channel, stock location, price list)",
  reference_data: "Reading categories and brands",
  filter: "Bringing the shop in line with the filter",
  full_export: "Reading the whole catalog",
  changes: "Reading what changed since the last sync",
  sweep: "Removing products the catalog no longer has",
  "judging removals": "Checking the removals with the safety brake",
  removing: "Removing products",
  reprice: "Repricing from the stored costs",
}

const LOOK_WORDS: Record<Exclude<ProgressLook, "running">, string> = {
  waiting: "Waiting to start",
  blocked: "Stopped: the catalog refused the key",
  paused: "Paused by the safety brake: waiting for your answer",
  answered: "Answered: the run that carries out your answer goes on",
  done: "Finished",
  failed: "Failed",
  interrupted: "Interrupted",
}

/**
 * The run's state in words: the phase while it runs, else why it does not move. `planExpiredAt`:
 * when the account's plan ended, where the screen knows it (the plan refusal is worded by
 * planRefusalPhrase, as the blocked notice and the last run word it).
 */
export function phaseText(
  view: Pick<ProgressView, "look" | "phase" | "blocked_code"> & { display?: ProgressView["display"] },
  planExpiredAt?: string | null
): string {
  if (view.look === "blocked" && view.blocked_code === "plan_required") return `Stopped: ${planRefusalPhrase(planExpiredAt)}`
  if (view.look === "done" && view.display?.state === "no_changes") return "Finished: no changes"
  if (view.look !== "running") return LOOK_WORDS[view.look]
  if (!view.phase) return PHASE_WORDS.starting
  return PHASE_WORDS[view.phase] ?? view.phase.replace(/[_-]+/g, " ")
}

/** What a queued run will do once it starts, by its mode. */
const QUEUED_WORK: Record<string, string> = {
  full: "it will read the whole catalog and bring the shop in line with it",
  changes: "it will read what changed in the catalog since the last sync",
  reprice: "it will reprice the shop's products from their stored costs",
}

/** "it will read the whole catalog … once the sync's worker starts it". */
export function queuedWork(mode: string | null | undefined): string {
  return `${(mode && QUEUED_WORK[mode]) || "it will sync the shop with the catalog"} once the sync's worker starts it`
}

/**
 * The progress block's one headline: the mode and the run's state name, and the phase only where it
 * says more than the state (while the run goes, or why it stands still): "Changes · No changes",
 * never "Changes · No changes · Finished: no changes".
 */
export function progressHeadline(view: ProgressView): { state: string; phase: string | null } {
  // Not started: the badge says the state ("Queued"); the headline says what will happen.
  if (view.look === "waiting") return { state: `${modeLabel(view.mode)} · ${view.display.label}: ${queuedWork(view.mode)}`, phase: null }
  const state = `${modeLabel(view.mode)} · ${view.display.label}`
  return { state, phase: view.look === "running" || view.look === "blocked" ? phaseText(view) : null }
}

/** Sync states a run's view never outranks: the sync cannot run, or what it does is the sync's own matter. */
const SYNC_STATES_FIRST = new Set(["key_invalid", "plan_required"])

type StatusForBadge = Pick<SyncStatus, "state"> & Partial<Pick<SyncStatus, "running_run" | "resuming_run">> & { paused?: { run?: Run | null } | null }

function startedAt(value: string | null | undefined): number | null {
  if (!value) return null
  const t = Date.parse(value)
  return Number.isNaN(t) ? null : t
}

/** /status is about a newer run than the view (the view trails). */
function statusHasNewerRun(status: StatusForBadge | null | undefined, view: ProgressView): boolean {
  const statusRun = status?.running_run ?? status?.resuming_run ?? status?.paused?.run ?? null
  if (!statusRun || statusRun.id === view.run_id) return false
  const theirs = startedAt(statusRun.started_at ?? statusRun.created_at)
  const ours = startedAt(view.started_at)
  return theirs !== null && (ours === null || theirs > ours)
}

/**
 * The sync's state badge (the sync page's header, the product list's line). /status and /progress
 * are polled apart, so one may trail the other. While a run goes or waits the badge names it as
 * its progress block does (never "Idle" beside "Changes running"). When the view already shows the
 * run ended while /status still says a run goes or waits for an answer (right after Confirm, the
 * run that carries it out ends before /status says so), the badge reads the state that end leaves
 * the sync in ("Idle" after a success, "Failed"), never "Running" beside "Succeeded". /status wins
 * when it is about a newer run. A refused key or plan is the sync's own state whatever the run says.
 */
export function syncStateBadge(status: StatusForBadge | null | undefined, view: ProgressView | null | undefined): BadgeSpec {
  const state = status?.state
  if (!view || (state && SYNC_STATES_FIRST.has(state)) || statusHasNewerRun(status, view)) return stateBadge(state)
  if (liveBlockShown(view)) return { label: view.display.label, color: view.display.color }
  const trailing = state === "running" || state === "paused"
  if (trailing && endedBlockShown(view)) {
    if (view.look === "done") return stateBadge("idle")
    if (view.look === "failed") return stateBadge("failed")
    return { label: view.display.label, color: view.display.color }
  }
  return stateBadge(state)
}

/** The sync page's block about a run that ended a moment ago ("Succeeded", its counts), shown while the chip shows it. */
export function endedBlockShown(view: ProgressView | null | undefined): view is ProgressView {
  return !!view && !liveBlockShown(view) && view.ended_recently
}

/** That block's headline: the run's state name (a refused key or plan says why it stopped). */
export function endedHeadline(view: ProgressView, planExpiredAt?: string | null): string {
  return view.look === "blocked" ? phaseText(view, planExpiredAt) : view.display.label
}

/**
 * The chip's state name and colour: the run's (run-display-state.ts), or the sync's refused key or
 * plan, from the one table the badges read (src/sync/state-names.ts).
 */
export function chipBadge(view: ProgressView): BadgeSpec {
  if (view.look === "blocked") return stateBadge(view.blocked_code === "plan_required" ? "plan_required" : "key_invalid")
  return { label: view.display.label, color: view.display.color }
}

/** Only a running run has the running look (the pulsing dot, the ticking ETA). */
export function isMoving(view: Pick<ProgressView, "look"> | null | undefined): boolean {
  return view?.look === "running"
}

/** The chip shows a run that goes or waits for something, and a run's end for a short while after it. */
export function chipShown(view: ProgressView | null | undefined): view is ProgressView {
  if (!view) return false
  if (view.look === "done" || view.look === "failed" || view.look === "interrupted") return view.ended_recently
  return view.look !== "answered"
}

/** The sync page's live block: a run that goes or waits to start (a pause and a block have their own panels). */
export function liveBlockShown(view: ProgressView | null | undefined): view is ProgressView & { look: "running" | "waiting" } {
  return view?.look === "running" || view?.look === "waiting"
}

/**
 * The chip's words: the percent while a run goes ("Catalog sync 42 %", "… 1,200 checked"), else
 * the state's one name (chipBadge), with what an ended run did: "Catalog sync 100 % · succeeded",
 * "Catalog sync · succeeded · 12 updated", "Catalog sync · key refused".
 */
export function chipText(view: ProgressView): string {
  const name = lowerFirst(chipBadge(view).label)
  switch (view.look) {
    case "done":
      // A poll that changed nothing has nothing to be 100 % of; nor has a changes run, which has no known total.
      if (view.display?.state === "no_changes") return `Catalog sync · ${name}`
      return hasKnownLength(view) ? `Catalog sync 100 % · ${name}` : `Catalog sync · ${name} · ${didText(view)}`
    case "failed":
      return `Catalog sync · ${name}${view.percent !== null ? ` at ${view.percent} %` : ""}`
    case "blocked":
    case "paused":
    case "waiting":
    case "interrupted":
    case "answered":
      return `Catalog sync · ${name}`
    default:
      return view.percent !== null ? `Catalog sync ${view.percent} %` : `Catalog sync · ${formatCount(view.written)} ${throughVerb(view)}`
  }
}

/** "Key refused" -> "key refused"; a leading acronym keeps its case. */
function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text
}

/** A changes run reads only what changed: it has no total to be a percent of, even once it ended. */
function hasKnownLength(view: ProgressView): boolean {
  return view.mode !== "changes"
}

/** What an ended run did, in the run counts' own terms, without the zeros: "3 created · 12 updated". */
export function didText(view: ProgressView): string {
  return didWords(view.counts)
}

/** The same words from a run's stored counts (its `skipped` are the rejected). */
export function runDidText(run: { created?: number; updated?: number; stock_only?: number; removed?: number; swept?: number; skipped?: number }): string {
  return didWords({
    created: run.created ?? 0,
    updated: run.updated ?? 0,
    stock_only: run.stock_only ?? 0,
    removed: run.removed ?? 0,
    swept: run.swept ?? 0,
    rejected: run.skipped ?? 0,
  })
}

function didWords(c: Pick<ProgressView["counts"], "created" | "updated" | "stock_only" | "removed" | "swept" | "rejected">): string {
  const parts = (
    [
      [c.created, "created"],
      [c.updated, "updated"],
      [c.stock_only, "stock only"],
      [c.removed + c.swept, "removed"],
      [c.rejected, "rejected"],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, word]) => `${formatCount(n)} ${word}`)
  return parts.length ? parts.join(" · ") : "no changes"
}

/**
 * What the run does to each product it goes through: a reprice prices the shop's products from
 * their stored costs, every other run checks catalog products against the shop. Never "written":
 * the products it went through include those it left as they were.
 */
function throughVerb(view: Pick<ProgressView, "mode">): string {
  return view.mode === "reprice" ? "priced" : "checked"
}

/**
 * How far the run has got through the catalog (or the stored costs), whatever it changed:
 * "400 of 2,000 products checked (20 %)", "800 of 800 products priced (100 %)", "52 products checked".
 * The view's `written` counts the products of its committed pages, the unchanged among them.
 */
export function throughText(view: ProgressView): string {
  if (view.total !== null && view.percent !== null && (view.look !== "done" || hasKnownLength(view))) {
    return `${formatCount(view.written)} of ${formatCountOf(view.total, "product")} ${throughVerb(view)} (${view.percent} %)`
  }
  return `${formatCountOf(view.written, "product")} ${throughVerb(view)}`
}

/**
 * What a finished run changed of what it went through, in the run counts' own terms, with the
 * products it left as they were: "793 updated · 7 unchanged"; null when it changed and refused
 * nothing (its state, "No changes", says so once).
 */
export function outcomeText(view: ProgressView): string | null {
  const did = didText(view)
  if (did === "no changes") return null
  return view.counts.unchanged > 0 ? `${did} · ${formatCount(view.counts.unchanged)} unchanged` : did
}

/**
 * The counts line: how far the run has got, then (once it finished) what it changed, and how it
 * reads: "800 of 1,500 products checked (53 %) · 1,000 read · page 4 · 240 products/min" while it
 * goes, "800 of 800 products priced (100 %) · 793 updated · 7 unchanged · page 4" once done, and
 * "1,500 of 1,500 products checked (100 %) · page 8" for a full pass that changed nothing (its
 * state says "No changes"). Null for an ended changes run that changed nothing (its state already
 * says so, once).
 */
export function countsText(view: ProgressView): string | null {
  const parts: string[] = []
  // A run that has not started, or ended without reading a product: its state or its error says so
  // once. A run about to go through a catalog of known size shows that size from its first moment
  // ("0 of 1,500 products checked (0 %) · 0 read"), without the words its headline says.
  if (nothingToCount(view))
    return (view.look === "waiting" || view.look === "running") && view.total !== null && view.percent !== null
      ? `${throughText(view)} · ${formatCount(view.read)} read`
      : null
  // A poll that changed nothing says so in its headline; a full pass that changed nothing still
  // says it went through the whole catalog.
  if (view.look === "done" && view.display?.state === "no_changes" && !hasKnownLength(view)) return null
  if (view.look === "done" && view.read === 0) {
    // A run that read no product (the removals after an answer): what it did, not "0 of 0".
    const removed = view.counts.removed + view.counts.swept
    return removed > 0 ? `${formatCountOf(removed, "product")} removed; no product to write` : null
  }
  const done = view.look === "done"
  if (done || (view.total !== null && view.percent !== null)) {
    parts.push(throughText(view))
  } else {
    const unknown =
      view.mode === "changes" && view.phase !== "full_export"
        ? "a changes run has no known length"
        : view.outgrown_total
          ? `total not known yet: the catalog has grown past the ${formatCount(view.outgrown_total)} expected`
          : "total not known yet"
    parts.push(`${throughText(view)}, ${unknown}`)
  }
  if (done) {
    // What it changed; its read figure is what it went through once it ended.
    const outcome = outcomeText(view)
    if (outcome) parts.push(outcome)
  } else {
    parts.push(`${formatCount(view.read)} read`)
  }
  // Before its first page is written a run has no page to number: it waits to start, prepares the shop, or writes its first page.
  parts.push(
    view.pages > 0 || done
      ? `page ${formatCount(view.pages)}`
      : view.read > 0
        ? "writing the first page"
        : waitsToStart(view)
          ? "waiting to start"
          : "no page read yet"
  )
  if (view.rate_per_minute !== null) parts.push(`${formatCount(Math.round(view.rate_per_minute))} products/min`)
  return parts.join(" · ")
}

/**
 * A run with nothing to count: it waits to start (queued for a worker, or just picked up), or it
 * ended (failed, interrupted, refused) without reading a product. Issue 43: a queued run read
 * "Waiting to start" then "0 of 159 products checked (0 %) · 0 read · waiting to start" and
 * "0 created · 0 updated · 0 removed"; a failed run showed the same zero lines under its error.
 * Such a run shows no counts line and no changes line: its state, or its error, says what happened.
 */
export function nothingToCount(view: ProgressView): boolean {
  const c = view.counts
  const changed = c.created + c.updated + c.stock_only + c.removed + c.swept + c.rejected + c.unchanged
  if (view.read > 0 || view.pages > 0 || view.written > 0 || changed > 0) return false
  if (view.look === "waiting") return true
  if (view.look === "failed" || view.look === "interrupted" || view.look === "blocked") return true
  return view.look === "running" && waitsToStart(view)
}

/** The progress block's "what it changed so far" line, or null: once the run ended the counts line says it, and a run with nothing to count has none. */
export function changesLine(view: ProgressView): string | null {
  if (view.look === "done" || nothingToCount(view)) return null
  return changesText(view)
}

/** A run that has not begun its work: queued for a worker, or just picked up. */
function waitsToStart(view: Pick<ProgressView, "phase">): boolean {
  return view.phase === null || view.phase === "queued" || view.phase === "starting"
}

/** What the written pages did so far, in the run counts' own terms: "3 created · 40 updated · 5 stock only · 2 removed · 1 rejected". */
export function changesText(view: ProgressView): string {
  const c = view.counts
  const parts = [`${formatCount(c.created)} created`, `${formatCount(c.updated)} updated`]
  if (c.stock_only) parts.push(`${formatCount(c.stock_only)} stock only`)
  parts.push(`${formatCount(c.removed + c.swept)} removed`)
  if (c.rejected) parts.push(`${formatCount(c.rejected)} rejected`)
  return parts.join(" · ")
}

/** Milliseconds since the view arrived, to move its clock figures on between polls. */
function sinceArrival(now: number, receivedAt: number): number {
  return Math.max(0, now - receivedAt)
}

/** The elapsed time, ticking while the run goes. */
export function elapsedMs(view: ProgressView, now: number, receivedAt: number): number | null {
  if (view.elapsed_ms === null) return null
  return isMoving(view) ? view.elapsed_ms + sinceArrival(now, receivedAt) : view.elapsed_ms
}

/**
 * The one ETA line, or null when there is none to print (the run does not move). Before the run's
 * own rate has a basis it says so instead of guessing.
 */
export function etaText(view: ProgressView, now: number, receivedAt: number): string | null {
  if (!isMoving(view)) return null
  // Not started: "Waiting to start" says it; no "no known length" under it.
  if (nothingToCount(view)) return null
  if (view.eta_ms !== null) {
    const left = view.eta_ms - sinceArrival(now, receivedAt)
    return left < 1000 ? "Almost done" : `About ${formatDuration(left)} left`
  }
  if (view.total === null) {
    if (view.outgrown_total)
      return "The catalog has grown since the last estimate of its size: the new size is known once this pass ends, so there is no estimate of the time left."
    return view.mode === "changes" && view.phase !== "full_export"
      ? "A changes run reads only what changed: its length is not known in advance."
      : "First full pass: the catalog's size is not known yet, so there is no estimate."
  }
  return "Estimating the time left from this run's pace…"
}

/** How often to ask again: every 2 s while a run goes or waits, else every 15 s. */
export function progressPollMs(view: ProgressView | null | undefined): number {
  return view && (view.look === "running" || view.look === "waiting") ? 2_000 : 15_000
}
