// The product-map rows of what the page wrote: last, so a page is "done" only once everything
// before it committed (a crash before this leaves products the next run adopts).
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { CATALOG_SYNC_MODULE } from "../../modules/catalog_sync/module-name"
import { shrinkingRows } from "../../sync/plan-page"
import type { CreatedProduct } from "../page-input"
import type { PlannedRecord, WrittenRecord } from "./page-types"

export const writeProductMapStepId = "catalog-sync-write-product-map"

export interface ProductMapInput {
  /** Products created, adopted leftovers included. */
  created: WrittenRecord[]
  updated: WrittenRecord[]
  stockOnly: PlannedRecord[]
  /** Map rows of the unchanged products (a full pass marks them seen). */
  unchangedRowIds: string[]
  /** The map rows of every planned create and update (rows losing a size are cleared first). */
  plannedRows: PlannedRecord["row"][]
  runId: string
  fullPassId: string | null
  syncedAt: string
}

type ProductMapWrites = {
  createCatalogProductMaps(data: Record<string, unknown>[]): Promise<unknown>
  updateCatalogProductMaps(data: Record<string, unknown>[] | { selector: Record<string, unknown>; data: Record<string, unknown> }): Promise<unknown>
}

function mapRowValues(p: PlannedRecord, written: CreatedProduct, input: ProductMapInput, now: Date) {
  return {
    catalog_id: p.catalogId,
    product_id: written.productId,
    sku: p.card.sku,
    variant_ids: written.variantIds,
    inventory_item_ids: written.inventoryItemIds,
    fingerprint: p.fingerprint,
    stock_fingerprint: p.stockFingerprint,
    sync_version: p.syncVersion,
    status: "active",
    last_run_id: input.runId,
    ...(input.fullPassId ? { last_seen_pass: input.fullPassId } : {}),
    synced_at: now,
  }
}

export const writeProductMapStep = createStep(writeProductMapStepId, async (input: ProductMapInput, { container }) => {
  const service = container.resolve(CATALOG_SYNC_MODULE) as unknown as ProductMapWrites
  const now = new Date(input.syncedAt)
  const newRows: Record<string, unknown>[] = []
  const rowUpdates: Record<string, unknown>[] = []
  for (const w of input.created) {
    const values = mapRowValues(w.record, w.result, input, now)
    if (w.record.row) rowUpdates.push({ id: w.record.row.id, ...values })
    else newRows.push(values)
  }
  for (const w of input.updated) rowUpdates.push({ id: w.record.row!.id, ...mapRowValues(w.record, w.result, input, now) })
  for (const p of input.stockOnly) {
    rowUpdates.push({
      id: p.row!.id,
      stock_fingerprint: p.stockFingerprint,
      sync_version: p.syncVersion,
      last_run_id: input.runId,
      ...(input.fullPassId ? { last_seen_pass: input.fullPassId } : {}),
      synced_at: now,
    })
  }
  if (newRows.length) await service.createCatalogProductMaps(newRows)
  // Medusa's update merges JSON objects into the stored ones, so a size that left would stay in
  // variant_ids / inventory_item_ids (pointing at a deleted variant). Rows whose id maps lose a
  // key are cleared first, then written whole.
  const shrinking = shrinkingRows(rowUpdates, input.plannedRows.map((row) => ({ row })))
  if (shrinking.length) await service.updateCatalogProductMaps(shrinking.map((id) => ({ id, variant_ids: null, inventory_item_ids: null })))
  if (rowUpdates.length) await service.updateCatalogProductMaps(rowUpdates)
  // Unchanged products cost no Medusa write; during a full pass they are only marked seen.
  if (input.fullPassId && input.unchangedRowIds.length) {
    await service.updateCatalogProductMaps({
      selector: { id: input.unchangedRowIds },
      data: { last_seen_pass: input.fullPassId },
    })
  }
  return new StepResponse(undefined)
})
