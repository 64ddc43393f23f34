// A page's writes paced over the time the API leaves between pages (the rule and the budget:
// src/sync/write-pace.ts). The run sets a pacer around a page's write in this process
// (withWritePace, as the write fence); the writers call paceWrites() between their statements,
// which pauses there when the budget says so, inside or outside the page's transactions. A pause
// ends as soon as the next page has arrived: from then on the writer goes at full speed, so
// pacing only ever uses time the run would have spent waiting. Outside a paced write (a page
// written by another instance, a reprice, setup, admin routes) paceWrites() does nothing.
import { AsyncLocalStorage } from "node:async_hooks"
import { PACE_OPTIONS, pauseDue, type PaceBudget, type PaceOptions } from "../sync/write-pace"

/** The next page of the run, as the pacer watches it. */
export interface NextPage {
  /** Whether it has been read (or its read settled otherwise): no more pauses. */
  arrived(): boolean
  /** Settles when it arrives. */
  whenArrived(): Promise<void>
}

/** What a paced write did: its work, its pauses, and the points it could have paused at. */
export interface PaceRecord {
  busyMs: number
  pausedMs: number
  pauses: number
  points: number
}

export class PagePacer {
  readonly #started: number
  #pausedMs = 0
  #pauses = 0
  #points = 0

  constructor(
    private readonly budget: PaceBudget | null,
    private readonly next: NextPage,
    private readonly now: () => number = () => performance.now(),
    private readonly options: PaceOptions = PACE_OPTIONS
  ) {
    this.#started = now()
  }

  /** The pause in progress: a page's steps run side by side, and all of them pause together. */
  #pausing: Promise<void> | null = null

  /**
   * Pauses here if the page is ahead of its budget and the next page is not here yet. `inTransaction`:
   * the caller holds one of the app's pooled connections (which the shop's requests need too).
   */
  async pace(inTransaction = false): Promise<void> {
    this.#points++
    // Another of the page's steps is pausing: this one waits with it (the time counts once), unless
    // it holds a transaction open: at most one of the page's transactions is held by a pause.
    if (this.#pausing) return inTransaction ? undefined : this.#pausing
    if (!this.budget || this.next.arrived()) return
    const busyMs = this.now() - this.#started - this.#pausedMs
    const due = pauseDue(this.budget, { busyMs, pausedMs: this.#pausedMs }, this.options)
    if (!due) return
    const from = this.now()
    let timer: NodeJS.Timeout | undefined
    this.#pausing = Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, due))), this.next.whenArrived()]).then(() => {
      clearTimeout(timer)
      this.#pausedMs += this.now() - from
      this.#pauses++
      this.#pausing = null
    })
    return this.#pausing
  }

  /** The write's record, once it ended. */
  record(): PaceRecord {
    const elapsed = this.now() - this.#started
    return { busyMs: Math.max(0, elapsed - this.#pausedMs), pausedMs: this.#pausedMs, pauses: this.#pauses, points: this.#points }
  }
}

const pacers = new AsyncLocalStorage<PagePacer>()

/** Runs `work` with its writes paced by `pacer` (none: unpaced). */
export function withWritePace<T>(pacer: PagePacer | null | undefined, work: () => Promise<T>): Promise<T> {
  return pacer ? pacers.run(pacer, work) : work()
}

/**
 * A pause point between two of a page's statements, or before a transaction (`inTransaction`
 * false): pauses when the page's pacer says so.
 */
export function paceWrites(inTransaction = false): Promise<void> | void {
  const pacer = pacers.getStore()
  if (pacer) return pacer.pace(inTransaction)
}
