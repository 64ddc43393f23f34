// The run's held removals (held-removals.ts) bound to its database connection, fence and
// removal mode: the removals the admin confirmed, applied before any page; a page's removals held
// before its cursor can be stored; every held one counted, sampled, paused or applied at the end.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { PlannedRemoval } from "../pricing/brake"
import type { MapRow } from "../sync/plan-page"
import type { RemovalMode } from "../workflows/remove-catalog-products"
import { applyPending, countPending, heldIds, heldSample, holdRemovals, markPaused, releaseHolds, type HeldCounts, type PendingStatus } from "./held-removals"

/** What the run's brake needs of its held removals (run-brake.ts). */
export interface HeldRemovalsOfRun {
  sample(): Promise<PlannedRemoval[]>
  /** Marks every held removal as this run's pause; returns their catalog ids. */
  pause(): Promise<string[]>
}

export class RunHolds implements HeldRemovalsOfRun {
  constructor(
    private readonly container: MedusaContainer,
    private readonly opts: {
      runId: string
      mode: RemovalMode
      /** The run's fence, checked before each chunk is applied. */
      beforeChunk: () => Promise<void>
      /** Told the products a chunk removed (mirrored images let go of theirs). */
      removed?: (catalogIds: string[]) => Promise<void>
    }
  ) {}

  count(status: PendingStatus): Promise<HeldCounts & { total: number }> {
    return countPending(this.container, status)
  }

  apply(status: PendingStatus): Promise<HeldCounts> {
    const { mode, runId, beforeChunk, removed } = this.opts
    return applyPending(this.container, status, { mode, runId, beforeChunk, removed })
  }

  /** A page's removals held before its write; the products it sends again are no longer held. */
  async holdPage(sentAgain: readonly string[], removals: readonly Pick<MapRow, "catalog_id" | "product_id">[]): Promise<void> {
    await releaseHolds(this.container, sentAgain)
    await holdRemovals(this.container, removals, "feed", this.opts.runId)
  }

  sample(): Promise<PlannedRemoval[]> {
    return heldSample(this.container)
  }

  async pause(): Promise<string[]> {
    await markPaused(this.container, this.opts.runId)
    return heldIds(this.container, this.opts.runId)
  }
}
