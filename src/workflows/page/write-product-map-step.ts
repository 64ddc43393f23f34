// The product-map rows of what the page wrote: last, so a page is "done" only once everything
// before it committed (a crash before this leaves products the next run adopts).
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { CreatedProduct } from "../page-input"
import type { PlannedRecord, PlannedWrite, PlanRecords } from "./page-types"
import { openPage } from "./page-context"
import { writePageMapRows } from "../../modules/catalog_sync/sql/product-map"

export const writeProductMapStepId = "catalog-sync-write-product-map"

/** What a map row takes of a product's record. */
export type MapRecord = Pick<PlannedRecord, "catalogId" | "card" | "fingerprint" | "stockFingerprint" | "syncVersion"> & { row: { id: string } | null }

export interface ProductMapInput {
  /** Products created, adopted leftovers included. */
  created: { record: MapRecord; result: CreatedProduct }[]
  updated: { record: MapRecord; result: CreatedProduct }[]
  stockOnly: MapRecord[]
  /** Map rows of the unchanged products (a full pass marks them seen). */
  unchangedRowIds: string[]
  runId: string
  fullPassId: string | null
  syncedAt: string
}

function mapRowValues(p: MapRecord, written: CreatedProduct, input: ProductMapInput, now: Date) {
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

type MapSettings = { runId: string; fullPassId: string | null; syncedAt: string }

export const writeProductMapStep = createStep(writeProductMapStepId, async (settings: { pageKey: string } & MapSettings, { container }) => {
  const open = openPage(settings.pageKey)
  const input = productMapInput(open.prepared!.records, open.writes!, settings)
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
  await writePageMapRows(container, {
    insert: newRows,
    update: rowUpdates as (Record<string, unknown> & { id: string })[],
    ...(input.fullPassId ? { seen: { ids: unchanged, pass: input.fullPassId } } : {}),
  })
  return new StepResponse(undefined)
})

const mapRecord = (p: PlannedRecord): MapRecord => ({
  catalogId: p.catalogId,
  card: p.card,
  fingerprint: p.fingerprint,
  stockFingerprint: p.stockFingerprint,
  syncVersion: p.syncVersion,
  row: p.row ? { id: p.row.id } : null,
})

/** The map step's input: what the page wrote, its stock-only products and unchanged rows (pure). */
function productMapInput(
  page: Pick<PlanRecords, "create" | "update" | "stockOnly" | "unchangedRowIds">,
  writes: { created: PlannedWrite[]; updated: PlannedWrite[] },
  settings: MapSettings
): ProductMapInput {
  const byId = new Map([...page.create, ...page.update].map((p) => [p.catalogId, p]))
  const withRecord = (w: PlannedWrite) => ({ record: mapRecord(byId.get(w.catalogId)!), result: w.result })
  return {
    created: writes.created.map(withRecord),
    updated: writes.updated.map(withRecord),
    stockOnly: page.stockOnly.map(mapRecord),
    unchangedRowIds: page.unchangedRowIds,
    runId: settings.runId,
    fullPassId: settings.fullPassId,
    syncedAt: settings.syncedAt,
  }
}
