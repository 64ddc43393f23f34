// The safety brake (src/sync/safety-brake.ts) over one run: built on the shop's catalog products and
// prices at the run's start, it judges each page's price drops as the page is planned, and the
// run's held removals together once it has read its last page.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { CatalogSyncModuleService } from "../modules/catalog_sync"
import { activeMapRows } from "../modules/catalog_sync/sql/product-map"
import { productsKeptForOrders } from "../modules/catalog_sync/sql/pending-removals"
import { brakeMemoryOf, SafetyBrake, type BrakeMemory, type BrakePause } from "../sync/safety-brake"
import type { EffectiveSettings } from "../sync/settings"
import { currentPricesOf, shopCatalogPrices } from "./brake-reads"
import type { HeldCounts } from "./held-removals"
import { activeCatalogProducts } from "./product-map"
import type { HeldRemovalsOfRun } from "./run-holds"
import type { PageBrake } from "./write-page"

type LockedFields = Pick<CatalogSyncModuleService, "catalogIdsWithLockedField">

export class RunBrake {
  constructor(
    readonly brake: SafetyBrake,
    /** The shop's current prices of a page's products (brake-reads.ts). */
    private readonly readPrices: PageBrake["read"]
  ) {}

  /** The brake against the shop's catalog products and prices now, with the admin's earlier answers. */
  static async open(container: MedusaContainer, locks: LockedFields, thresholds: EffectiveSettings["brake"], memory: unknown): Promise<RunBrake> {
    const answers = brakeMemoryOf(memory)
    // A removal's share is of what the catalog still sells: products kept by a discarded removal are
    // in the shop but no longer the catalog's, and counting them would make each discard dull the brake.
    const keptByDiscard = (await activeMapRows(container, answers.discarded)).length
    const catalogProducts = Math.max(0, (await activeCatalogProducts(container)) - keptByDiscard)
    // Products an open order keeps are not active in the map, so not in the base either: the
    // preview says what the share leaves out (the admin reads "not counting …").
    const keptForOrders = await productsKeptForOrders(container)
    const brake = new SafetyBrake(catalogProducts, await shopCatalogPrices(container), thresholds, answers, {
      kept_by_discard: keptByDiscard,
      kept_for_orders: keptForOrders,
    })
    return new RunBrake(brake, (ids) => currentPricesOf(container, ids, (of) => locks.catalogIdsWithLockedField(of, "prices")))
  }

  /** What a page's write asks of the brake (write-page.ts). */
  forPage(): PageBrake {
    return { read: this.readPrices, check: (plan, current) => this.brake.check(plan, current) }
  }

  /** A page passed the brake and goes to its write: its drops count for the pages after it. */
  written(): void {
    this.brake.written()
  }

  /** Removals the admin discarded at a pause (the sweep and a filter change keep them too). */
  get discarded(): ReadonlySet<string> {
    return this.brake.discarded
  }

  /**
   * The run's held removals judged together: the pause (the held ones marked as its own, every
   * id listed), or null to apply them.
   */
  async judgeHeld(held: HeldCounts & { total: number }, holds: HeldRemovalsOfRun): Promise<BrakePause | null> {
    const judged = this.brake.checkRemovals(held.total, await holds.sample())
    if (!judged) return null
    const removal_ids = await holds.pause()
    return { ...judged, removal_ids, price_drops: {}, held: { feed: held.feed, sweep: held.sweep, filter: held.filter } }
  }

  /** The memory to store when the run ends well (null: unchanged). */
  memoryAfterRun(): BrakeMemory | null {
    return this.brake.memoryAfterRun()
  }
}
