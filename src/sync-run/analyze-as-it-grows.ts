// A first sync fills Medusa's product, price, inventory and link tables in bulk, faster than
// autovacuum analyzes them (a minute apart at best; never on a server with it off). Planned on
// statistics of a small table, or on none, Medusa's own reads scan more and more of a growing
// one: the link module's one-brand-per-product check walked every link of the table until an
// ANALYZE, and a large first sync's pages grew slower as it went. PostgreSQL's advice after a bulk load is
// to ANALYZE; a run does so each time the products it created double, from 1,000 on, in the
// background (ANALYZE takes no lock that blocks reads or writes), one at a time, and once more when
// the run's pages are done (the shop's reads after the sync are planned on the whole catalog).
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { PRODUCT_TABLES, productLinkTables } from "../bulk-write"
import type { Connection } from "../bulk-write/connection"
import { analyzableTables, analyzeTables } from "../bulk-write/statistics"
import { runErrorText } from "../sync/write-failures"

/** Products a run creates before its first ANALYZE. */
export const ANALYZE_FIRST_AT = 1_000

/** Whether a run that has created `created` products, and last analyzed at `analyzedAt` (0: never), analyzes now. */
export function analyzeDue(created: number, analyzedAt: number): boolean {
  return created >= Math.max(ANALYZE_FIRST_AT, 2 * analyzedAt)
}

/** The tables a page's new products fill: Medusa's, the translations, the module links and the plugin's own. */
export function tablesToAnalyze(linkTables: string[]): string[] {
  const plugin = ["mcs_product_map", "mcs_variant_cost", "mcs_sync_run_change"]
  return [...new Set([...PRODUCT_TABLES, "product_option", "product_option_value", "translation", ...linkTables, ...plugin])]
}

export class GrowthAnalyzer {
  #analyzedAt = 0
  #running: Promise<void> | null = null
  #failed = false

  constructor(
    private readonly db: Connection,
    private readonly logger: Pick<Logger, "info" | "warn">
  ) {}

  /** Called with the run's created products after each page: starts an ANALYZE when one is due and none is running. */
  after(created: number): void {
    if (this.#failed || this.#running || !analyzeDue(created, this.#analyzedAt)) return
    this.#start(created)
  }

  /**
   * When the run's pages are done: waits for an ANALYZE in flight, then analyzes once more if the
   * run created products since the last one (up to half the catalog after a doubling), so the
   * shop's reads after a first sync are planned on statistics of the whole catalog.
   */
  async finish(created: number): Promise<void> {
    await this.settle()
    if (this.#failed || created < ANALYZE_FIRST_AT || created <= this.#analyzedAt) return
    this.#start(created)
    await this.settle()
  }

  #start(created: number): void {
    this.#analyzedAt = created
    const started = Date.now()
    this.#running = this.#analyze()
      .then((tables) => this.logger.info(`catalog sync: analyzed ${tables} tables after ${created} products created, in ${Date.now() - started} ms`))
      .catch((error) => {
        // Not worth a failed run: the planner keeps its old statistics (say, a connection lost).
        this.#failed = true
        this.logger.warn(`catalog sync: could not analyze the tables the sync fills, left to autovacuum: ${runErrorText(error)}`)
      })
      .finally(() => {
        this.#running = null
      })
  }

  /** Waits for an ANALYZE in flight (a run ends with none running). */
  async settle(): Promise<void> {
    await this.#running
  }

  async #analyze(): Promise<number> {
    // Only tables this database has and the user may analyze.
    const tables = await analyzableTables(this.db, tablesToAnalyze(productLinkTables().map((l) => l.table)))
    if (!tables.length) throw new Error("the database user may analyze none of them (it owns none)")
    await analyzeTables(this.db, tables)
    return tables.length
  }
}

/** The run's analyzer, on the app's database connection. */
export function growthAnalyzerFor(container: MedusaContainer, logger: Pick<Logger, "info" | "warn">): GrowthAnalyzer {
  return new GrowthAnalyzer(container, logger)
}
