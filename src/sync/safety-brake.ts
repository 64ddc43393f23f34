// The safety brake over a run (pure; the decision itself is src/pricing/brake.ts).
//
// Removals are never judged page by page: a run holds every removal (a changes-feed `removed`
// item, the sweep's unseen products, a narrowed filter's) in the plugin's own table
// (src/sync-run/held-removals.ts) and applies none until it has read its last page. Then they
// are judged together (checkRemovals): under the threshold they are applied; past it the run
// pauses with nothing of them removed, and the admin's answer decides them all.
//
// Steep price drops are judged before each page (or reprice batch) is written: what the run has
// written so far plus what the page would write, against the shop's catalog prices. Past the
// threshold the page is not written and the run pauses.
//
// The admin's answer is remembered in the sync state (BrakeMemory):
// - confirmed: the pause's drops (size → new price) are approved; the held removals it listed
//   are applied by the run that continues it;
// - discarded: removal ids are never removed by a later run (page or sweep) until the catalog
//   sends the product again; a discarded drop keeps the size's old price until the catalog's
//   price moves again. So the same batch is not proposed again without the admin's say.
import {
  decideBrake,
  dropPercent,
  type BrakeBaseExclusions,
  type BrakeDecision,
  type BrakeThresholds,
  type PlannedPriceChange,
  type PlannedRemoval,
} from "../pricing/brake"
import type { PagePlan, PlannedUpsert } from "./plan-page"
import { variantAmounts } from "./card-details"

/** Size → price maps are keyed "<catalog id>:<size key>" (catalog ids are digits). */
export const priceKey = (catalogId: string, size: string) => `${catalogId}:${size}`

export type BrakeMemory = {
  approved: string[]
  discarded: string[]
  /** priceKey → the new selling price the admin approved / discarded. */
  approved_drops: Record<string, string>
  discarded_drops: Record<string, string>
}

export const EMPTY_BRAKE_MEMORY: BrakeMemory = { approved: [], discarded: [], approved_drops: {}, discarded_drops: {} }

export function brakeMemoryOf(value: unknown): BrakeMemory {
  const v = (value ?? {}) as Partial<BrakeMemory>
  const ids = (list: unknown) => (Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [])
  const prices = (map: unknown) =>
    map && typeof map === "object" && !Array.isArray(map)
      ? Object.fromEntries(Object.entries(map).filter((e): e is [string, string] => typeof e[1] === "string"))
      : {}
  return { approved: ids(v.approved), discarded: ids(v.discarded), approved_drops: prices(v.approved_drops), discarded_drops: prices(v.discarded_drops) }
}

/**
 * What a paused run stores: why, the preview, every held removal id the pause judged (the held
 * table is the record; this list is what the admin saw) and every steep drop of the paused page
 * (priceKey → new price): what a confirm approves or a discard keeps off.
 */
export type BrakePause = Pick<BrakeDecision, "reasons" | "preview"> & {
  removal_ids: string[]
  price_drops: Record<string, string>
  /** The held removals the pause judged, by where they came from (changes feed, sweep, filter). */
  held?: Record<string, number>
}

/**
 * The plan to write (its removals taken out: they are held, see `held`), or a pause. `held`: the
 * page's removals to hold (discarded ones left out), never written with the page.
 */
export type BrakeCheck = { plan: PagePlan; held: PagePlan["remove"]; pause?: undefined } | { pause: BrakePause; plan?: undefined; held?: undefined }

/** A size's price in the shop now (the cost table's amounts): the "before" of a price change. */
export type CurrentPrice = { variant_id: string; amount: string | null; crossed_out: string | null }

export type DropCheck = { keep: ReadonlySet<string>; pause?: undefined } | { pause: BrakePause; keep?: undefined }

export class SafetyBrake {
  readonly #approved: Set<string>
  readonly #discarded: Set<string>
  readonly #approvedDrops: Map<string, string>
  readonly #discardedDrops: Map<string, string>
  /** Steep drops the run has written so far. */
  readonly #dropped: PlannedPriceChange[] = []
  /** The last checked page's counted drops (added by written()). */
  #checkedDrops: PlannedPriceChange[] = []
  #memoryChanged = false

  constructor(
    private readonly shopProducts: number,
    private readonly shopPrices: number,
    private readonly thresholds: BrakeThresholds,
    memory: BrakeMemory,
    /** What `shopProducts` leaves out (kept by a discard, for an open order): the preview says so. */
    private readonly notCounted?: BrakeBaseExclusions
  ) {
    this.#approved = new Set(memory.approved)
    this.#discarded = new Set(memory.discarded)
    this.#approvedDrops = new Map(Object.entries(memory.approved_drops))
    this.#discardedDrops = new Map(Object.entries(memory.discarded_drops))
  }

  /**
   * The page's plan without its removals (returned as `held`, discarded ones left out) and with
   * discarded drops kept at their old price, or a pause over its steep drops.
   * `current`: the page's sizes' prices now, by priceKey (absent: a new size).
   */
  check(plan: PagePlan, current: ReadonlyMap<string, CurrentPrice> = new Map()): BrakeCheck {
    // A product the catalog sends again is no longer "discarded": a later removal of it is real.
    for (const p of [...plan.create, ...plan.update, ...plan.stockOnly, ...plan.unchanged]) {
      if (this.#discarded.delete(p.catalogId)) this.#memoryChanged = true
    }
    const held = plan.remove.filter((r) => !this.#discarded.has(r.catalog_id))
    const drops = this.checkPriceChanges(priceChangesOf(plan.update, current))
    if (drops.pause) return { pause: drops.pause }
    const update = drops.keep.size ? plan.update.map((p) => keepOldPrices(p, drops.keep, current)) : plan.update
    return { plan: plan.remove.length === 0 && update === plan.update ? plan : { ...plan, remove: [], update }, held }
  }

  /**
   * The price changes of a page or a reprice batch: a pause, or the priceKeys whose drop the
   * admin discarded (to be kept at their old price).
   */
  checkPriceChanges(changes: readonly PlannedPriceChange[]): DropCheck {
    const keep = new Set<string>()
    const counted: PlannedPriceChange[] = []
    const limit = this.thresholds.price_drop_percent
    for (const change of changes) {
      const key = priceKey(change.catalog_id ?? "", change.size ?? "")
      const discardedTo = this.#discardedDrops.get(key)
      if (discardedTo !== undefined) {
        if (discardedTo === change.to) {
          keep.add(key)
          continue
        }
        // The catalog's price moved again: a new change, judged anew.
        this.#discardedDrops.delete(key)
        this.#memoryChanged = true
      }
      if (this.#approvedDrops.get(key) === change.to) continue
      const drop = dropPercent(change.from, change.to)
      if (drop !== null && drop.gt(limit)) counted.push(change)
    }
    this.#checkedDrops = counted
    if (counted.length) {
      const decision = decideBrake({
        shopCatalogProducts: this.shopProducts,
        shopPrices: this.shopPrices,
        removals: [],
        priceChanges: [...this.#dropped, ...counted],
        thresholds: this.thresholds,
      })
      if (decision.pause) {
        const price_drops = Object.fromEntries(counted.map((c) => [priceKey(c.catalog_id ?? "", c.size ?? ""), c.to]))
        return { pause: { reasons: decision.reasons, preview: decision.preview, removal_ids: [], price_drops } }
      }
    }
    return { keep }
  }

  /** The page (or reprice batch) was written: its counted drops count from now on. */
  written(): void {
    this.#dropped.push(...this.#checkedDrops)
    this.#checkedDrops = []
  }

  /**
   * Every removal the run holds, judged together once it has read its last page: `count` of
   * them, `sample` some (the preview's). The pause's reasons and preview, or null to apply them;
   * the caller lists every held id of the pause (they are in the held table: a sweep may be large).
   */
  checkRemovals(count: number, sample: readonly PlannedRemoval[]): Pick<BrakePause, "reasons" | "preview"> | null {
    if (count === 0) return null
    const decision = decideBrake({
      shopCatalogProducts: this.shopProducts,
      notCounted: this.notCounted,
      shopPrices: this.shopPrices,
      removals: sample,
      removalCount: count,
      priceChanges: this.#dropped,
      thresholds: this.thresholds,
    })
    return decision.pause ? { reasons: decision.reasons, preview: decision.preview } : null
  }

  /** Ids whose removal the admin discarded (the sweep keeps them too). */
  get discarded(): ReadonlySet<string> {
    return this.#discarded
  }

  /** The memory to store when the run ends well: approvals are used up; discards that came back are gone. */
  memoryAfterRun(): BrakeMemory | null {
    if (!this.#memoryChanged && this.#approved.size === 0 && this.#approvedDrops.size === 0) return null
    return { approved: [], discarded: [...this.#discarded], approved_drops: {}, discarded_drops: Object.fromEntries(this.#discardedDrops) }
  }
}

/** Every selling-price change the updates of a page would write, against the shop's prices now. */
export function priceChangesOf(updates: readonly PlannedUpsert[], current: ReadonlyMap<string, CurrentPrice>): PlannedPriceChange[] {
  const changes: PlannedPriceChange[] = []
  for (const p of updates) {
    // An update that leaves the prices part as it was writes no price.
    if (!p.partsToWrite.prices) continue
    for (const v of p.input.variants) {
      const to = v.priced?.amount ?? null
      const now = current.get(priceKey(p.catalogId, v.sizeKey))
      if (to === null || !now || now.amount === null || now.amount === to) continue
      changes.push({ variant_id: now.variant_id, catalog_id: p.catalogId, size: v.sizeKey, title: p.input.title, from: now.amount, to })
    }
  }
  return changes
}

/** The product with the discarded drops' sizes at the prices the shop has now. */
function keepOldPrices(p: PlannedUpsert, keep: ReadonlySet<string>, current: ReadonlyMap<string, CurrentPrice>): PlannedUpsert {
  if (!p.input.variants.some((v) => keep.has(priceKey(p.catalogId, v.sizeKey)))) return p
  const variants = p.input.variants.map((v) => {
    const key = priceKey(p.catalogId, v.sizeKey)
    const now = current.get(key)
    if (!keep.has(key) || !now || !v.priced) return v
    return {
      ...v,
      ...variantAmounts({ price: now.amount, old_price: now.crossed_out }),
      priced: { ...v.priced, amount: now.amount, crossedOut: now.crossed_out },
    }
  })
  // The fingerprint stays the card's: the next run sees the product unchanged and proposes nothing.
  return { ...p, input: { ...p.input, variants } }
}

/** The memory after the admin's answer to a pause of these removal ids and drops (priceKey → new price). */
export function answeredMemory(memory: BrakeMemory, action: "confirmed" | "discarded", ids: string[], drops: Record<string, string>): BrakeMemory {
  const without = (map: Record<string, string>) => Object.fromEntries(Object.entries(map).filter(([key]) => !(key in drops)))
  return action === "confirmed"
    ? {
        approved: [...new Set([...memory.approved, ...ids])],
        discarded: memory.discarded.filter((id) => !ids.includes(id)),
        approved_drops: { ...memory.approved_drops, ...drops },
        discarded_drops: without(memory.discarded_drops),
      }
    : {
        approved: memory.approved.filter((id) => !ids.includes(id)),
        discarded: [...new Set([...memory.discarded, ...ids])],
        approved_drops: without(memory.approved_drops),
        discarded_drops: { ...memory.discarded_drops, ...drops },
      }
}
