// A run's page writes in this process, paced over the time the API leaves between pages
// (src/sync/write-pace.ts the rule, bulk-write/write-pace.ts the pauses). The run tells it, for
// each page it writes here, how long it waited for that page (the slack the previous write left);
// each page's pacer is budgeted from the previous page's record. It also sums what the run's
// writes cost, for the run's log.
import { PagePacer, type NextPage, type PaceRecord } from "../bulk-write/write-pace"
import { paceBudget, type PageWriteRecord } from "../sync/write-pace"

export class WritePacing {
  #previous: Omit<PageWriteRecord, "waitedMs"> | null = null
  readonly #total = { busyMs: 0, pausedMs: 0, pauses: 0, pages: 0, pacedPages: 0 }

  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * The pacer of the next page written here. `waitedMs`: how long the run waited for this page's
   * read after the previous page was written (0 when it was there already).
   */
  forPage(waitedMs: number, next: NextPage): PagePacer {
    const budget = paceBudget(this.#previous && { ...this.#previous, waitedMs })
    return new PagePacer(budget, next, this.now)
  }

  /** The page's write ended (committed or not): its record budgets the next page. */
  written(pacer: PagePacer): PaceRecord {
    const record = pacer.record()
    this.#previous = { busyMs: record.busyMs, pausedMs: record.pausedMs }
    this.#total.busyMs += record.busyMs
    this.#total.pausedMs += record.pausedMs
    this.#total.pauses += record.pauses
    this.#total.pages++
    if (record.pauses) this.#total.pacedPages++
    return record
  }

  /** The run's log line: how busy its page writes kept the process, and how they were paced. */
  summary(runMs: number): string {
    const t = this.#total
    const s = (ms: number) => (ms / 1000).toFixed(1)
    const share = runMs > 0 ? ` (${((t.busyMs / runMs) * 100).toFixed(0)} % of the run's ${s(runMs)} s)` : ""
    return (
      `catalog sync: page writes here ${t.pages}, busy ${s(t.busyMs)} s${share}; ` + `paced ${t.pacedPages} of them, ${s(t.pausedMs)} s in ${t.pauses} pauses`
    )
  }
}
