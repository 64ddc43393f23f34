// The product list's one line about the sync (pure): its state by the same badge as the sync page,
// when it last synced or what it does now, and what needs the admin, each with where to act. The
// full panel lives on the sync page; this line only points there.
import { pausedForText, pausedRunOf } from "./brake"
import { runErrorVoice } from "./errors"
import { formatCount } from "./format"
import { keptCountsText } from "./kept-products"
import { expiredAtOf, planBlockedText } from "./plan-words"
import { liveBlockShown, phaseText, runDidText, syncStateBadge, throughText, type ProgressView } from "./progress"
import { modeLabel, type BadgeSpec } from "./status"
import type { KeptProductsAnswer, SyncStatus } from "./types"

export type SummaryWarning = {
  kind: "blocked" | "paused" | "failed" | "overdue" | "kept"
  tone: "error" | "warning"
  text: string
  /** Where the admin acts on it (a dashboard path) and the link's words. */
  href: string
  action: string
}

export type SyncSummary = { badge: BadgeSpec; activity: string; warnings: SummaryWarning[] }

const SYNC_PAGE = "/catalog-sync"
const SETTINGS_PAGE = "/settings/catalog-sync"
const runPage = (id: string) => `/settings/catalog-sync/runs/${encodeURIComponent(id)}`

export function syncSummary(
  status: SyncStatus,
  view: ProgressView | null,
  kept: KeptProductsAnswer["counts"] | null,
  relative: (iso: string) => string
): SyncSummary {
  return { badge: syncStateBadge(status, view), activity: activityText(status, view, relative), warnings: summaryWarnings(status, kept) }
}

/** Not connected: "yet" only for a shop that never synced; after a disconnect, what that means. */
export function notConnectedText(status: Pick<SyncStatus, "last_run">): string {
  return status.last_run ? "The catalog is disconnected: no API key is saved, so nothing syncs until one is." : "The catalog is not connected yet."
}

/** What the sync does now, else when it last ran and what that run did, and when the next one runs. */
export function activityText(status: SyncStatus, view: ProgressView | null, relative: (iso: string) => string, now: number = Date.now()): string {
  if (status.state === "not_configured") return notConnectedText(status)
  if (status.state === "disabled") return "The sync is switched off in settings."
  if (liveBlockShown(view) && status.state !== "key_invalid" && status.state !== "plan_required") {
    if (view.look === "waiting") return "A sync is waiting to start."
    // How far it has got, in the progress block's words ("400 of 2,000 products checked (20 %)").
    return `${modeLabel(view.mode)}: ${lowerFirst(phaseText(view))} · ${throughText(view)}`
  }
  // The last ended run (succeeded, failed or interrupted: a paused one is a warning of its own).
  const run = status.last_run
  if (!run) return "No sync has finished yet."
  const when = run.finished_at ?? run.started_at
  const ago = when ? ` ${relative(when)}` : ""
  const last =
    run.status === "succeeded" ? `Last synced${ago}: ${runDidText(run)}` : run.status === "failed" ? `Last sync failed${ago}` : `Last sync interrupted${ago}`
  // The next scheduled run, only while one will run at it and it is still ahead.
  const next = status.next_run_at
  const ahead = next && (status.state === "idle" || status.state === "failed") && Date.parse(next) > now
  return ahead ? `${last} · next ${relative(next)}` : last
}

/** What needs the admin, most pressing first: a refused key or plan, a pause, a failure, a stop, products kept. */
export function summaryWarnings(status: SyncStatus, kept: KeptProductsAnswer["counts"] | null): SummaryWarning[] {
  const out: SummaryWarning[] = []
  if (status.state === "key_invalid")
    out.push({
      kind: "blocked",
      tone: "error",
      text: "The catalog refused the API key: no sync runs until a working key is saved.",
      href: SETTINGS_PAGE,
      action: "Open settings",
    })
  if (status.state === "plan_required")
    out.push({
      kind: "blocked",
      tone: "error",
      text: planBlockedText(expiredAtOf(status.account)),
      href: SETTINGS_PAGE,
      action: "Open settings",
    })
  const paused = pausedRunOf(status)
  if (paused)
    out.push({
      kind: "paused",
      tone: "warning",
      text: `A sync waits for your answer: ${pausedForText(paused)}.`,
      href: runPage(paused.run.id),
      action: "Answer",
    })
  const run = status.last_run
  const refused = status.state === "key_invalid" || status.state === "plan_required"
  // A failure that a run going now may mend is not yet the admin's matter.
  if (run && run.status === "failed" && !refused && !status.running_run)
    out.push({
      kind: "failed",
      tone: "error",
      text: `The last sync failed: ${lowerFirst(runErrorVoice(run.error_code, run.error_message).sentence)}`,
      href: runPage(run.id),
      action: "See the run",
    })
  if (status.state === "overdue" || status.state === "stalled")
    out.push({
      kind: "overdue",
      tone: "error",
      text:
        status.state === "overdue"
          ? "No sync has started for over two poll intervals: check that a worker instance runs."
          : "A sync stopped moving: check that a worker instance runs.",
      href: SYNC_PAGE,
      action: "Open catalog sync",
    })
  if (kept && kept.total > 0)
    out.push({ kind: "kept", tone: "warning", text: `The shop keeps ${keptCountsText(kept, formatCount)}.`, href: SYNC_PAGE, action: "Review" })
  return out
}

function lowerFirst(text: string): string {
  // A leading acronym ("API ...") keeps its case.
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text
}
