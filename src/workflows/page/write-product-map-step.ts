// The product-map rows of what the page wrote: last, so a page is "done" only once everything
// before it committed (a crash before this leaves products the next run adopts).
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { CreatedProduct } from "../page-input"
import type { PlannedRecord, WrittenRecord } from "./page-types"
import { insertMapRows, setMapColumn, updateMapRows } from "./product-map-rows"
import { knexOf } from "./store-variant-costs-step"

export const writeProductMapStepId = "catalog-sync-write-product-map"

export interface ProductMapInput {
  /** Products created, adopted leftovers included. */
  created: WrittenRecord[]
  updated: WrittenRecord[]
  stockOnly: PlannedRecord[]
  /** Map rows of the unchanged products (a full pass marks them seen). */
  unchangedRowIds: string[]
  runId: string
  fullPassId: string | null
  syncedAt: string
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
  // One transaction: new rows, rewritten rows (JSON id maps replaced whole, so a size that
  // left is gone from them), and unchanged products marked seen by a full pass.
  const unchanged = input.fullPassId ? input.unchangedRowIds : []
  if (!newRows.length && !rowUpdates.length && !unchanged.length) return new StepResponse(undefined)
  await knexOf(container).transaction(async (trx) => {
    await insertMapRows(trx, newRows)
    await updateMapRows(trx, rowUpdates as (Record<string, unknown> & { id: string })[])
    if (input.fullPassId) await setMapColumn(trx, unchanged, "last_seen_pass", input.fullPassId)
  })
  return new StepResponse(undefined)
})
