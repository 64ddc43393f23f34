// The run row (mcs_sync_run) as a sync run writes it: started, progress between pages and
// inside long ones, each page's counts and rejected items, a pause's preview, its end. The
// folding of a page into the run's counts is pure (foldPage) and the recorder only stores it.
import type { ChangesPage } from "../catalog-client/catalog-client"
import type { CatalogSyncModuleService } from "../modules/catalog_sync"
import { addOmitted } from "../sync/change-log-policy"
import type { BrakePause } from "../sync/safety-brake"
import { productsWritten } from "../workflows/page/write-progress"
import { MAX_REJECTED_ON_RUN, toRunRecord, type RunCounts, type RunRejectedItem } from "./counts"
import type { HeldCounts } from "./held-removals"
import { progressOf, type SyncRunState } from "./sync-run-state"
import type { PageOutcome } from "./write-page"

export type RunStatus = "succeeded" | "failed" | "interrupted" | "paused"

/**
 * A written page folded into the run's counts, its omitted change-log rows and rejected items.
 * Returns the records to log (every rejected card and dropped part, kept on the row or not).
 */
export function foldPage(
  state: SyncRunState,
  page: Pick<ChangesPage, "items" | "rejected" | "warnings">,
  outcome: Pick<PageOutcome, "plan" | "rejected" | "changeLog">
): RunRejectedItem[] {
  const { counts } = state
  const { plan } = outcome
  const pageRejected = [...page.rejected, ...outcome.rejected]
  counts.pages++
  counts.items_seen += page.items.length + page.rejected.length
  counts.created += plan.create.length
  counts.updated += plan.update.length
  counts.stock_only += plan.stockOnly.length
  counts.unchanged += plan.unchanged.length
  counts.removed += plan.remove.length
  counts.skipped += pageRejected.length
  state.itemsDone = counts.items_seen
  state.omitted = addOmitted(state.omitted, outcome.changeLog.omitted)
  // Kept cards with a part dropped (an image URL that is not http(s)): recorded, not skipped.
  const records = [...pageRejected.map((r) => toRunRecord(r)), ...(page.warnings ?? []).map((w) => toRunRecord(w, { kept: true }))]
  for (const record of records) if (state.rejected.length < MAX_REJECTED_ON_RUN) state.rejected.push(record)
  return records
}

/** The run's log line for page `n` once it was taken back. */
export function pageLogLine(
  n: number,
  page: Pick<ChangesPage, "items" | "rejected">,
  outcome: Pick<PageOutcome, "plan" | "rejected" | "timings">,
  fetchWaitMs: number,
  writeMs: number
): string {
  const { plan } = outcome
  return (
    `catalog sync page ${n}: ${page.items.length} items (create ${plan.create.length}, update ${plan.update.length}, ` +
    `stock ${plan.stockOnly.length}, unchanged ${plan.unchanged.length}, remove ${plan.remove.length}, rejected ${page.rejected.length + outcome.rejected.length}); ` +
    `waited ${fetchWaitMs} ms for the page, wrote in ${writeMs} ms ${JSON.stringify(outcome.timings)}`
  )
}

/** The cards a filter change wrote (no page of the feed: neither pages nor items seen move). */
export function foldFilterWrite(counts: RunCounts, outcome: Pick<PageOutcome, "plan" | "rejected">): void {
  counts.created += outcome.plan.create.length
  counts.updated += outcome.plan.update.length
  counts.stock_only += outcome.plan.stockOnly.length
  counts.unchanged += outcome.plan.unchanged.length
  counts.skipped += outcome.rejected.length
}

/** Held removals applied: the feed's and a filter's are removals, the sweep's are swept. */
export function foldRemoved(counts: RunCounts, removed: HeldCounts): void {
  counts.removed += removed.feed + removed.filter
  counts.swept += removed.sweep
}

type RunRows = Pick<CatalogSyncModuleService, "updateCatalogSyncRuns">

export class RunRecorder {
  /** The products-written counter when the last page was taken back (productsWritten, write-progress.ts). */
  #writtenMark = productsWritten()
  #reported: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly runs: RunRows,
    private readonly state: SyncRunState,
    private readonly now: () => Date
  ) {}

  // rejected_items is a json column, typed by the model as an object; it holds this list.
  #rejectedColumn(): Record<string, unknown> {
    return this.state.rejected as unknown as Record<string, unknown>
  }

  async #update(patch: Record<string, unknown>): Promise<void> {
    await this.runs.updateCatalogSyncRuns({ id: this.state.runId, ...patch })
  }

  started(): Promise<void> {
    return this.#update({ status: "running", started_at: this.state.startedAt, progress: progressOf(this.state) })
  }

  progress(): Promise<void> {
    return this.#update({ progress: progressOf(this.state) })
  }

  /** Counts and progress (removals applied before any page). */
  counts(): Promise<void> {
    return this.#update({ ...this.state.counts, progress: progressOf(this.state) })
  }

  /** After a page was taken back and its cursor stored. */
  page(): Promise<void> {
    return this.#update({ ...this.state.counts, rejected_items: this.#rejectedColumn(), progress: progressOf(this.state) })
  }

  /**
   * Inside long pages: products written so far, every few seconds. The counts stay those of
   * written pages: a page's plan is not yet a write (the admin showed planned updates as done).
   * Not awaited by the caller; pageTaken waits for it.
   */
  insidePage(): void {
    this.state.itemsDone = this.state.counts.items_seen + (productsWritten() - this.#writtenMark)
    this.#reported = this.#update({ progress: progressOf(this.state) }).catch(() => undefined)
  }

  /** A page is taken back: a report still in flight must not land after the page's own counts. */
  async pageTaken(): Promise<void> {
    await this.#reported
    this.#writtenMark = productsWritten()
  }

  brake(pause: BrakePause): Promise<void> {
    return this.#update({ brake: pause as unknown as Record<string, unknown> })
  }

  /** The run's end: its status, counts, rejected items, progress and error. */
  ended(status: RunStatus, failure?: { code: string; message: string; class?: string | null }, phase?: string): Promise<void> {
    return this.#update({
      status,
      finished_at: this.now(),
      ...this.state.counts,
      rejected_items: this.#rejectedColumn(),
      progress: phase ? { ...progressOf(this.state), phase } : progressOf(this.state),
      error_code: failure?.code ?? null,
      error_class: failure?.class ?? null,
      error_message: failure?.message ?? null,
    })
  }
}
