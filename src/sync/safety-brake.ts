// The safety brake over a run's removals (pure; the decision itself is src/pricing/brake.ts):
// before a page is written, the removals the run has made so far plus the page's are compared
// with the shop's catalog products; past the threshold the page is not written and the run
// pauses for the admin. So a feed gone wrong removes at most the threshold's share before the
// run stops, and the paused page's removals are shown to the admin.
//
// The admin's answer is remembered in the sync state (BrakeMemory):
// - confirmed: the page's removal ids are approved; the run that continues counts them no more;
// - discarded: the ids are never removed by a later run (page or sweep) until the catalog sends
//   the product again, so the same batch is not proposed again without the admin's say.
import { decideBrake, type BrakeDecision, type BrakeThresholds, type PlannedRemoval } from "../pricing/brake"
import type { PagePlan } from "./plan-page"

export type BrakeMemory = { approved: string[]; discarded: string[] }

export const EMPTY_BRAKE_MEMORY: BrakeMemory = { approved: [], discarded: [] }

export function brakeMemoryOf(value: unknown): BrakeMemory {
  const v = (value ?? {}) as Partial<BrakeMemory>
  const ids = (list: unknown) => (Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [])
  return { approved: ids(v.approved), discarded: ids(v.discarded) }
}

/** What a paused run stores: why, the preview, and every removal id of the paused page (what a confirm approves). */
export type BrakePause = Pick<BrakeDecision, "reasons" | "preview"> & { removal_ids: string[] }

export type BrakeCheck = { plan: PagePlan; pause?: undefined } | { pause: BrakePause; plan?: undefined }

export class RemovalBrake {
  readonly #approved: Set<string>
  readonly #discarded: Set<string>
  /** Unapproved removals the run has written so far. */
  readonly #removed: PlannedRemoval[] = []
  #memoryChanged = false

  constructor(
    private readonly shopProducts: number,
    private readonly thresholds: BrakeThresholds,
    memory: BrakeMemory,
  ) {
    this.#approved = new Set(memory.approved)
    this.#discarded = new Set(memory.discarded)
  }

  /** The page's plan without discarded removals, or a pause. */
  check(plan: PagePlan): BrakeCheck {
    // A product the catalog sends again is no longer "discarded": a later removal of it is real.
    for (const p of [...plan.create, ...plan.update, ...plan.stockOnly, ...plan.unchanged]) {
      if (this.#discarded.delete(p.catalogId)) this.#memoryChanged = true
    }
    const remove = plan.remove.filter((r) => !this.#discarded.has(r.catalog_id))
    const pending = remove.filter((r) => !this.#approved.has(r.catalog_id)).map((r) => ({ catalog_id: r.catalog_id, product_id: r.product_id }))
    if (pending.length) {
      const decision = decideBrake({
        shopCatalogProducts: this.shopProducts,
        shopPrices: 0,
        removals: [...this.#removed, ...pending],
        priceChanges: [],
        thresholds: this.thresholds,
      })
      if (decision.pause) return { pause: { reasons: decision.reasons, preview: decision.preview, removal_ids: remove.map((r) => r.catalog_id) } }
    }
    return { plan: remove.length === plan.remove.length ? plan : { ...plan, remove } }
  }

  /** The page was written: its unapproved removals count from now on. */
  written(plan: PagePlan): void {
    for (const r of plan.remove) if (!this.#approved.has(r.catalog_id)) this.#removed.push({ catalog_id: r.catalog_id, product_id: r.product_id })
  }

  /** Ids whose removal the admin discarded (the sweep keeps them too). */
  get discarded(): ReadonlySet<string> {
    return this.#discarded
  }

  /** The memory to store when the run ends well: approvals are used up; discards that came back are gone. */
  memoryAfterRun(): BrakeMemory | null {
    if (!this.#memoryChanged && this.#approved.size === 0) return null
    return { approved: [], discarded: [...this.#discarded] }
  }
}
