// Pure: one page of change items + the product-map rows for their ids → what to write.
// The plan is the whole decision; src/workflows only carries it out.
import { oneItemPerId } from "../catalog-client/duplicate-items"
import type { ChangeItem, RejectedItem } from "../catalog-client/items"
import { ALL_PARTS, changedParts, fingerprint, stockFingerprint, type ChangedParts } from "./fingerprint"
import { mapCardToProduct, stockOf, type MapContext } from "./map-card"
import type { CatalogProduct, StockInput } from "./catalog-product"

/** The columns of mcs_product_map the sync reads. */
export interface MapRow {
  id: string
  catalog_id: string
  product_id: string | null
  /** size key → variant id */
  variant_ids: Record<string, string> | null
  /** size key → inventory item id */
  inventory_item_ids: Record<string, string> | null
  fingerprint: string | null
  stock_fingerprint: string | null
  sync_version: number | null
  /** "active" | "removed" | "draft" */
  status: string
}

export interface PlannedUpsert {
  catalogId: string
  /** The card, mapped once (mapCardToProduct). */
  input: CatalogProduct
  stock: StockInput
  fingerprint: string
  stockFingerprint: string
  /** The existing map row (null for a product never seen). */
  row: MapRow | null
  /** For an update: which parts to rewrite (all for a product coming back from draft). */
  partsToWrite: ChangedParts
}

export interface PagePlan {
  create: PlannedUpsert[]
  update: PlannedUpsert[]
  stockOnly: PlannedUpsert[]
  unchanged: PlannedUpsert[]
  /** Active products the catalog removed. */
  remove: MapRow[]
  rejected: RejectedItem[]
}

/**
 * Whether a card is older than what the shop already wrote: a product never goes backwards, so
 * a card whose sync_version is below the map row's is not applied (it counts as unchanged).
 * An equal version still goes through the fingerprints (pricing or settings may have changed).
 */
export function isStaleCard(cardVersion: number | null | undefined, storedVersion: number | string | null | undefined): boolean {
  if (cardVersion === null || cardVersion === undefined || storedVersion === null || storedVersion === undefined) return false
  const stored = Number(storedVersion)
  return Number.isFinite(stored) && cardVersion < stored
}

function emptyPlan(): PagePlan {
  return { create: [], update: [], stockOnly: [], unchanged: [], remove: [], rejected: [] }
}

/** Decides one item: which list of the plan it joins. */
function planItem(plan: PagePlan, item: ChangeItem, row: MapRow | null, ctx: MapContext): void {
  if (!("product" in item) || item.status === "removed") {
    // A removal for a product the shop does not have (or already removed) needs nothing.
    if (row && row.status === "active" && row.product_id) plan.remove.push(row)
    return
  }
  const stale = row !== null && isStaleCard(item.product.sync_version, row.sync_version)
  let input: CatalogProduct
  let stock: StockInput
  try {
    input = mapCardToProduct(item.product, ctx)
    stock = stockOf(item.product)
  } catch (e) {
    plan.rejected.push({ id: item.id, reason: `mapping failed: ${(e as Error).message}` })
    return
  }
  const planned: PlannedUpsert = {
    catalogId: item.id,
    input,
    stock,
    fingerprint: fingerprint(input),
    stockFingerprint: stockFingerprint(stock, ctx.stockLocationId ?? null),
    row,
    partsToWrite: ALL_PARTS,
  }
  // An older card than the one written (a replay, or pages written out of order): kept as it is,
  // still counted as seen (its row is in `unchanged`, which marks the full pass).
  if (stale) plan.unchanged.push(planned)
  else if (!row || !row.product_id || row.status === "removed") plan.create.push(planned)
  else if (row.status !== "active" || row.fingerprint !== planned.fingerprint) {
    if (row.status === "active") planned.partsToWrite = changedParts(row.fingerprint, planned.fingerprint)
    plan.update.push(planned)
  } else if (row.stock_fingerprint !== planned.stockFingerprint) plan.stockOnly.push(planned)
  else plan.unchanged.push(planned)
}

export function planPage(items: ChangeItem[], mapRows: MapRow[], ctx: MapContext): PagePlan {
  const plan = emptyPlan()
  const rows = new Map(mapRows.map((r) => [r.catalog_id, r]))
  // The client already keeps one item per id; the same rule here keeps a plan from ever writing one id twice.
  for (const item of oneItemPerId(items).items) planItem(plan, item, rows.get(item.id) ?? null, ctx)
  return plan
}

/** Items planned between two turns of the event loop (a card costs about a third of a millisecond on a quiet core, several on a busy one). */
export const PLAN_SLICE_ITEMS = 10

/**
 * The same plan as `planPage`, made in slices of at most `sliceItems` items with `turn()` awaited
 * between them: planning runs on the server's event loop, and a whole page at once held every
 * shopper's request behind it (tens to hundreds of milliseconds a page on a loaded machine).
 */
export async function planPageInSlices(
  items: ChangeItem[],
  mapRows: MapRow[],
  ctx: MapContext,
  turn: () => Promise<void>,
  sliceItems = PLAN_SLICE_ITEMS
): Promise<PagePlan> {
  const plan = emptyPlan()
  const rows = new Map(mapRows.map((r) => [r.catalog_id, r]))
  const latest = oneItemPerId(items).items
  for (let i = 0; i < latest.length; i++) {
    if (i > 0 && i % sliceItems === 0) await turn()
    planItem(plan, latest[i], rows.get(latest[i].id) ?? null, ctx)
  }
  return plan
}
