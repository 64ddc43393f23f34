// A run of kind "reprice": the shop's pricing rules changed (same price_calculation), so every
// variant's selling and crossed-out price is computed again from the costs the sync stored
// (mcs_variant_cost) and only the prices that change are written, by the run's writer. It asks the
// catalog API nothing. Progress is a run's: batches as pages, products done of the total.
//
// Rows whose cost came with another price_calculation are left alone: their costs are stale
// until the full pass a price_calculation change starts.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { Sql } from "../bulk-write/connection"
import { shopWriter } from "../shop-writer/choose-shop-writer"
import type { CatalogSyncModuleService } from "../modules/catalog_sync"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"
import { planReprice, type PriceChange, type StoredVariantPrice } from "../pricing/reprice"
import type { PricingRules } from "../pricing/rules"
import type { PlannedPriceChange } from "../pricing/brake"
import type { RunFence } from "./run-fence"
import { variantAmounts } from "../sync/card-details"
import type { EffectiveSettings } from "../sync/settings"
import { runErrorOf, runErrorText } from "../sync/write-failures"
import { ensureSalePriceList } from "../workflows/extras/sale-prices"
import type { ReferenceCache } from "../workflows/extras"
import { nextPricedProducts, pricedProductCount, setRepricedRows, type RepricedCostRow } from "../modules/catalog_sync/sql/variant-costs"
import { mappedProductTitles } from "../modules/catalog_sync/sql/product-map"
import { insertChangeRowsIn } from "../modules/catalog_sync/sql/change-log"
import { categoryPathIn, loadCatalogCategoryTree } from "./catalog-category-tree"
import { emptyCounts } from "./counts"
import { refreshPriceFingerprints } from "./reprice-fingerprints"
import { brakeMemoryOf, priceKey, SafetyBrake } from "../sync/safety-brake"
import { shopCatalogPrices, withTitles } from "./brake-reads"
import { repriceChangeRows } from "./reprice-change-log"
import { addOmitted, rowCap, selectRowsToStore, type Omitted } from "../sync/change-log-policy"

/** Products a batch reprices (one transaction each). */
export const REPRICE_BATCH_PRODUCTS = 1000

export interface RepriceRunInput {
  runId: string
  settings: EffectiveSettings
  signal: AbortSignal
  /** The run's lease (it owns current_run_id): checked before the run starts and before every batch. */
  fence: RunFence
}

type CostRow = RepricedCostRow

/** What Medusa holds for a variant's new prices: base price, and the sale list's price when there is a crossed-out one. */
export function medusaAmounts(change: Pick<PriceChange, "to">): { amount: string | null; saleAmount: string | null } {
  return variantAmounts({ price: change.to.amount, old_price: change.to.crossed_out })
}

/** The run's change log as the batches write it: rows stored so far (against the cap) and changes left without a row. */
type RepriceLog = { runId: string; stored: number; omitted: Omitted }

/**
 * Writes one batch's changes: base prices, sale prices, then the cost rows' amounts and revision,
 * and the batch's change-log rows (in one transaction with the prices they describe where the
 * writer has one).
 */
async function writeBatch(
  container: MedusaContainer,
  changes: PriceChange[],
  rows: CostRow[],
  saleListId: string,
  revision: number,
  log: RepriceLog
): Promise<void> {
  const idOfVariant = new Map(rows.map((r) => [r.variant_id, r.id]))
  const amounts = changes.map((c) => ({ variantId: c.variant_id, ...medusaAmounts(c) }))
  await (await shopWriter(container)).setPrices(amounts, saleListId, (trx) => writeCostRows(trx, changes, rows, idOfVariant, revision, log))
}

/** The plugin's own rows of a reprice batch: cost rows' amounts and revision, price fingerprints, and the batch's change-log rows. */
async function writeCostRows(
  trx: Sql,
  changes: PriceChange[],
  rows: CostRow[],
  idOfVariant: Map<string, string>,
  revision: number,
  log: RepriceLog
): Promise<void> {
  const changedIds = new Set(changes.map((c) => idOfVariant.get(c.variant_id)))
  const unchanged = rows.map((r) => r.id).filter((id) => !changedIds.has(id))
  await setRepricedRows(
    trx,
    revision,
    changes.map((c) => ({ id: idOfVariant.get(c.variant_id)!, amount: c.to.amount, crossed_out: c.to.crossed_out })),
    unchanged
  )
  await refreshPriceFingerprints(trx, rows, changes)
  if (changes.length) {
    const catalogIds = [...new Set(changes.map((c) => c.catalog_id).filter((id): id is string => !!id))]
    const products = await mappedProductTitles(trx, catalogIds)
    const all = repriceChangeRows(changes, rows, new Map(products.map((p) => [p.catalog_id, p])))
    const { store, omitted } = selectRowsToStore(all, log.stored, rowCap("full"))
    if (store.length) await insertChangeRowsIn(trx, log.runId, store)
    log.stored += store.length
    log.omitted = addOmitted(log.omitted, omitted)
  }
}

/** The selling-price moves of a reprice, as the brake judges them. */
function sellingPriceChanges(changes: PriceChange[]): PlannedPriceChange[] {
  return changes
    .filter((c) => c.from.amount !== null && c.from.amount !== c.to.amount)
    .map((c) => ({ variant_id: c.variant_id, catalog_id: c.catalog_id, size: c.size, from: c.from.amount!, to: c.to.amount }))
}

/** The batch's stored costs as the reprice plans them; `pricesLocked`: catalog ids whose product has its prices locked. */
export function storedPrices(
  rows: CostRow[],
  pathOf: (categoryId: string | null) => string[],
  pricesLocked: ReadonlySet<string> = new Set()
): StoredVariantPrice[] {
  return rows.map((r) => {
    const fromTree = pathOf(r.category_id)
    return {
      variant_id: r.variant_id,
      catalog_id: r.catalog_id,
      size: r.size_key,
      cost: r.cost,
      // The shop's tree as it is now; the stored path when the category is no longer in it.
      context: { categoryPath: fromTree.length > 1 || !r.category_path?.length ? fromTree : r.category_path, brandId: r.brand_id },
      current: { amount: r.amount, crossed_out: r.crossed_out_amount },
      ...(pricesLocked.has(r.catalog_id) ? { prices_locked: true } : {}),
    }
  })
}

type RepriceStatus = "succeeded" | "failed" | "interrupted" | "paused"

export async function repriceRun(container: MedusaContainer, input: RepriceRunInput): Promise<{ status: RepriceStatus; errorCode?: string }> {
  const service = container.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const { runId, settings, signal, fence } = input
  const rules: PricingRules = settings.pricingRules
  const revision = settings.pricingRulesRevision
  const calculation = settings.pricing.price_calculation
  const counts = emptyCounts()
  let phase = "reprice"
  let total: number | null = null
  let moved = 0
  const log: RepriceLog = { runId, stored: 0, omitted: {} }
  const progress = () => ({
    phase,
    items_done: counts.items_seen,
    ...(total !== null ? { expected_total: total, expected_total_source: "stored_costs" } : {}),
    rules_revision: revision,
    prices_changed: moved,
    ...(Object.keys(log.omitted).length ? { change_log_omitted: log.omitted } : {}),
  })
  const state = await service.getState()
  const finish = async (status: RepriceStatus, error?: unknown) => {
    const failure = error === undefined ? undefined : runErrorOf(error)
    await service.updateCatalogSyncRuns({
      id: runId,
      status,
      finished_at: new Date(),
      ...counts,
      progress: progress(),
      error_code: failure?.code ?? null,
      error_message: failure?.message ?? null,
    })
    return failure ? { status, errorCode: failure.code } : { status }
  }

  await fence.check()
  await service.updateCatalogSyncRuns({ id: runId, status: "running", started_at: new Date(), progress: progress() })
  try {
    const pathOf = categoryPathIn(await loadCatalogCategoryTree(container))
    const cache = (state.reference_cache ?? null) as ReferenceCache | null
    const saleListId = await ensureSalePriceList(container, cache?.sale_price_list_id ?? null)
    total = await pricedProductCount(container, calculation)
    // The safety brake over steep drops (src/sync/safety-brake.ts): a rules change that marks
    // down too much of the shop pauses before the batch, like a feed gone wrong would.
    const brake = new SafetyBrake(0, await shopCatalogPrices(container), settings.brake, brakeMemoryOf(state.brake_memory))
    await service.updateCatalogSyncRuns({ id: runId, progress: progress() })
    const started = Date.now()
    let after: string | null = null
    for (;;) {
      if (signal.aborted) {
        phase = "interrupted"
        return await finish("interrupted")
      }
      const batch = await nextPricedProducts(container, after, calculation, REPRICE_BATCH_PRODUCTS)
      if (!batch.catalogIds.length) break
      // Products whose prices the shop locked keep them (src/field-locks): planReprice leaves them out of the changes.
      const pricesLocked = await service.catalogIdsWithLockedField(batch.catalogIds, "prices")
      const unlocked = planReprice(storedPrices(batch.rows, pathOf, pricesLocked), rules).changes
      const checked = brake.checkPriceChanges(sellingPriceChanges(unlocked))
      if (checked.pause) {
        // Nothing of this batch was written; the run that continues it starts over (written batches have nothing left to change).
        phase = "paused"
        const pause = await withTitles(container, checked.pause)
        logger.warn(`catalog sync: reprice run ${runId} paused by the safety brake: ${pause.reasons.map((r) => r.message).join("; ")}`)
        await service.updateCatalogSyncRuns({ id: runId, brake: pause as unknown as Record<string, unknown> })
        return await finish("paused")
      }
      // Drops the admin discarded keep the price the shop has.
      const changes = unlocked.filter((c) => !checked.keep.has(priceKey(c.catalog_id ?? "", c.size ?? "")))
      await fence.check()
      await writeBatch(container, changes, batch.rows, saleListId, revision, log)
      brake.written()
      const touched = new Set(changes.map((c) => c.catalog_id))
      counts.pages++
      counts.items_seen += batch.catalogIds.length
      counts.updated += touched.size
      counts.unchanged += batch.catalogIds.length - touched.size
      moved += changes.length
      after = batch.catalogIds[batch.catalogIds.length - 1]
      await service.updateCatalogSyncRuns({ id: runId, ...counts, progress: progress() })
    }
    logger.info(
      `catalog sync: reprice run ${runId} (rules revision ${revision}): ${counts.items_seen} products, ${moved} variant prices changed in ${Date.now() - started} ms, no API request`
    )
    phase = "done"
    const memory = brake.memoryAfterRun()
    if (memory) await fence.updateState(state.id, { brake_memory: memory })
    return await finish("succeeded")
  } catch (error) {
    logger.error(`catalog sync reprice run ${runId} failed: ${runErrorText(error, { withStack: true })}`)
    phase = "failed"
    return await finish("failed", error)
  }
}
