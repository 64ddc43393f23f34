// The page's changed products, and adopted crash leftovers (nothing of them is known: all parts
// are written), by updateCatalogProductsWorkflow in concurrent chunks with per-product
// containment. An update rewrites the same values when run again, so no compensation here.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { PlannedUpsert } from "../../sync/plan-page"
import type { Placement, ProductToUpdate } from "../page-input"
import { updateCatalogProductsWorkflow } from "../update-catalog-products"
import type { ChunkedWriteOutcome } from "./page-types"
import { withoutDetails } from "./write-new-products-step"
import { rejectOrThrow, writeInChunks } from "./write-in-chunks"

export const writeChangedProductsStepId = "catalog-sync-write-changed-products"

export interface ChangedProductsInput {
  products: PlannedUpsert[]
  /** catalog id → adopted leftover product (those products are written whole). */
  adopted: Record<string, string>
  placement: Placement
  concurrency: number
  /** Products the page already wrote (the failure judgement weighs them). */
  alreadyWritten: number
}

export const writeChangedProductsStep = createStep(writeChangedProductsStepId, async (input: ChangedProductsInput, { container }) => {
  const updates = await writeInChunks(input.products, input.concurrency, async (chunk) => {
    const products: ProductToUpdate[] = chunk.map((p) => {
      const orphan = input.adopted[p.catalogId] ?? null
      return {
        catalogId: p.catalogId,
        productId: orphan ?? p.row!.product_id!,
        input: withoutDetails(p.input),
        stock: p.stock,
        variantIds: orphan ? {} : p.row!.variant_ids ?? {},
        inventoryItemIds: orphan ? {} : p.row!.inventory_item_ids ?? {},
        partsToWrite: orphan ? { fields: true, variants: true, prices: true } : p.partsToWrite,
      }
    })
    const { result } = await updateCatalogProductsWorkflow(container).run({ input: { products, placement: input.placement } })
    return result
  })
  const rejected = await rejectOrThrow(container, updates.failed, input.alreadyWritten + updates.written.length)
  const out: ChunkedWriteOutcome = { written: updates.written.map((w) => ({ plan: w.item, result: w.result })), rejected }
  return new StepResponse(out)
})
