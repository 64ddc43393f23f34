// The run's reader of the changes feed: one cursor, pages in order, the next page requested
// while the one before it is written. A page read and not yet handed to a writer is kept here
// ("unsent") until the page window has room for it. A refused cursor (invalid_cursor,
// pricing_changed) is not thrown while restarts are left: the reader records it, and the run
// begins a new full pass once the pages in flight are taken back.
import type { CatalogClient, ChangesPage } from "../catalog-client/catalog-client"
import type { NextPage } from "../bulk-write/write-pace"
import { MAX_RESTARTS, restartReason } from "../sync/run-state"

/** Products per page: the API's maximum. */
export const PAGE_SIZE = 200

export type ReadPage = { page: ChangesPage; fetchWaitMs: number }

export class PageReader {
  #pending: Promise<ChangesPage> | null = null
  /** Settles when the page being read is here (or its read failed). */
  #pendingSettled: Promise<void> = Promise.resolve()
  #pendingArrived = true
  #unsent: ReadPage | null = null
  /** Why the feed refused the cursor: the run restarts once the pages in flight are taken back. */
  restartFor: string | null = null

  constructor(
    private readonly client: Pick<CatalogClient, "getChangesPage">,
    private readonly signal: AbortSignal,
    /** Counts a request (the run's requests_used). */
    private readonly onRequest: () => void
  ) {}

  /** Begins reading at this cursor (null: the full export). */
  readFrom(cursor: string | null): void {
    this.restartFor = null
    this.#unsent = null
    this.#pending = this.#fetch(cursor)
  }

  /** Whether a page is read and waiting, or being read. */
  get hasMore(): boolean {
    return this.#unsent !== null || this.#pending !== null
  }

  /** Whether a page is being read (none is waiting). */
  get reading(): boolean {
    return this.#pending !== null
  }

  /** Reads no further (the brake paused the run: the page after the pause is not dispatched). */
  stop(): void {
    this.#pending = null
    this.#pendingArrived = true
  }

  /**
   * The next page as a page write's pacer watches it (bulk-write/write-pace.ts): arrived once it
   * is read or waiting, or when none is being read (nothing to wait for: the write goes at full
   * speed).
   */
  get nextPage(): NextPage {
    return {
      arrived: () => this.#unsent !== null || !this.#pending || this.#pendingArrived,
      whenArrived: () => this.#pendingSettled,
    }
  }

  /**
   * The next page in the feed: the one waiting, or (when `readMore`: the window has room) the one
   * being read, and then the next one is requested. null when there is none of those, the run
   * stopped reading, or the cursor was refused with restarts left (restartFor); a refused cursor
   * past them and any other failure throw.
   */
  async next(restarts: number, readMore: boolean): Promise<ReadPage | null> {
    // A page read before shutdown is not written: the run stops at this page boundary.
    if (this.#unsent && this.signal.aborted) this.#unsent = null
    if (this.#unsent) return this.#unsent
    const pending = this.#pending
    if (!pending || !readMore) return null
    const waitStarted = Date.now()
    let page: ChangesPage
    try {
      page = await pending
    } catch (error) {
      const reason = restartReason(error)
      if (reason && restarts < MAX_RESTARTS && !this.signal.aborted) {
        this.restartFor = reason
        return null
      }
      throw error
    }
    // Read the next page while this one is written.
    this.#pending = page.hasMore && !this.signal.aborted ? this.#fetch(page.nextCursor) : null
    this.#unsent = { page, fetchWaitMs: Date.now() - waitStarted }
    return this.#unsent
  }

  /** The page next() returned is handed to a writer. */
  taken(): void {
    this.#unsent = null
  }

  #fetch(cursor: string | null): Promise<ChangesPage> {
    this.onRequest()
    const promise = this.client.getChangesPage({ cursor, limit: PAGE_SIZE }, { signal: this.signal })
    promise.catch(() => undefined) // awaited later; keep an early failure from being "unhandled"
    this.#pendingArrived = false
    // A read replaced by a restart's (readFrom) no longer counts.
    const settled = () => void (this.#pending === promise && (this.#pendingArrived = true))
    this.#pendingSettled = promise.then(settled, settled)
    return promise
  }
}
