// After the product writes: the catalog's values that locks kept out (the product widget
// shows them; unlocking takes them) and, when admin edits lock fields, what the sync wrote
// (an admin edit is a difference from it). No compensation: a replayed page records again.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { HeldValues, PlannedFieldValues } from "../../field-locks"
import { CATALOG_SYNC_MODULE } from "../../modules/catalog_sync/module-name"
import type CatalogSyncModuleService from "../../modules/catalog_sync/service"

export const recordFieldValuesStepId = "catalog-sync-record-field-values"

export interface RecordFieldValuesInput {
  held: HeldValues[]
  /** Empty unless auto-lock is on. */
  written: { productId: string; catalogId: string; values: PlannedFieldValues }[]
  syncedAt: string
}

export const recordFieldValuesStep = createStep(recordFieldValuesStepId, async (input: RecordFieldValuesInput, { container }) => {
  const service = container.resolve<CatalogSyncModuleService>(CATALOG_SYNC_MODULE)
  const at = new Date(input.syncedAt)
  await service.mergeFieldValues(
    "held",
    input.held.map((h) => ({ productId: h.productId, catalogId: h.catalogId, values: h.held })),
    at
  )
  await service.mergeFieldValues(
    "written",
    input.written.filter((w) => Object.keys(w.values).length > 0),
    at
  )
  return new StepResponse(undefined)
})
