// The run's pages in flight: dispatched in feed order, written by the run's page writers (one at a
// time in this process, or several at once on every instance), and taken back in feed order, so a
// page's cursor is stored only once it and every earlier page committed (ordered-cursor.ts).
// No Medusa here: what a page's write does is handed in, so the ordering is tested on its own.
import type { ChangesPage } from "../catalog-client/catalog-client"
import type { PagePlan } from "../sync/plan-page"
import { OrderedCursor, type PageSlot } from "./ordered-cursor"

/** What a page's write ends with (write-page.ts's PageOutcome, as the window needs it). */
export type WrittenPage = { plan: PagePlan }

export type PageInFlight<Outcome extends WrittenPage = WrittenPage> = {
  /** The page's number in the run (0, 1, …). */
  seq: number
  page: ChangesPage
  /** How long the run waited for the page's read. */
  fetchWaitMs: number
  /** When its write began (Date.now()), for the run's log. */
  writeStarted: number
  /** Its plan once planned (the admin's progress shows it while the page writes). */
  planned: PagePlan | null
  /** Set once it committed, or once the brake paused the run at it (nothing written). */
  outcome?: Outcome
}

export class PageWindow<Outcome extends WrittenPage = WrittenPage> {
  readonly #order: OrderedCursor
  /** Dispatched and not yet taken back. */
  readonly #open = new Map<number, PageInFlight<Outcome>>()
  /** Committed, with every earlier page: taken back in this order. */
  readonly #ready: PageInFlight<Outcome>[] = []
  /** Writes in progress: the run ends only once they settled. */
  readonly #writing = new Map<number, Promise<void>>()
  /** The first write that failed: the run fails once the pages before it are taken back. */
  #failure: { error: unknown } | null = null

  /** @param inFlight pages dispatched and not yet taken back, at most */
  constructor(inFlight: number) {
    this.#order = new OrderedCursor(inFlight)
  }

  /** Whether another page may be read ahead now. */
  get hasRoom(): boolean {
    return this.#order.open < this.#order.limit
  }

  get failed(): boolean {
    return this.#failure !== null
  }

  /** Pages being written now. */
  get writing(): number {
    return this.#writing.size
  }

  /** Nothing being written and nothing waiting to be taken back. */
  get idle(): boolean {
    return !this.#writing.size && !this.#ready.length
  }

  /** Whether a page with this slot may be dispatched now (a page sharing ids with one being written waits). */
  mayDispatch(slot: PageSlot): boolean {
    return this.#order.mayDispatch(slot)
  }

  /** Records a page as dispatched. */
  open(page: ChangesPage, fetchWaitMs: number, slot: PageSlot): PageInFlight<Outcome> {
    const seq = this.#order.dispatch(slot)
    const entry: PageInFlight<Outcome> = { seq, page, fetchWaitMs, writeStarted: 0, planned: null }
    this.#open.set(seq, entry)
    return entry
  }

  /** A page that ends without a write (the brake paused the run at it): taken back after the pages before it. */
  settled(entry: PageInFlight<Outcome>, outcome: Outcome): void {
    entry.outcome = outcome
    this.#committed(entry)
  }

  /** Starts the page's write; a failure is kept and thrown by take() once the earlier pages are taken back. */
  write(entry: PageInFlight<Outcome>, work: () => Promise<Outcome>): void {
    const write = (async () => {
      try {
        entry.outcome = await work()
        this.#committed(entry)
      } catch (error) {
        this.#failure ??= { error }
      } finally {
        this.#writing.delete(entry.seq)
      }
    })()
    this.#writing.set(entry.seq, write)
  }

  /**
   * The next page in order whose write committed, waiting while pages are written; null when none
   * is left to wait for. Throws the first write failure once no committed page precedes it.
   */
  async take(): Promise<PageInFlight<Outcome> | null> {
    while (!this.#ready.length && this.#writing.size) await Promise.race(this.#writing.values())
    const taken = this.#ready.shift()
    if (taken) {
      this.#open.delete(taken.seq)
      return taken
    }
    if (this.#failure) throw this.#failure.error
    return null
  }

  /** Waits for every write in progress (no page of a run may still be written once it ends). */
  async settle(): Promise<void> {
    await Promise.allSettled(this.#writing.values())
  }

  #committed(entry: PageInFlight<Outcome>): void {
    for (const seq of this.#order.commit(entry.seq)) this.#ready.push(this.#open.get(seq)!)
  }
}
