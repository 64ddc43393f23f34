// The page's changed products, and adopted crash leftovers (nothing of them is known: all parts
// are written), by updateCatalogProductsWorkflow in concurrent chunks with per-product
// containment. An update rewrites the same values when run again, so no compensation here.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Placement, ProductToUpdate } from "../page-input"
import { updateCatalogProductsWorkflow } from "../update-catalog-products"
import type { ChunkedWriteOutcome } from "./page-types"
import { rejectOrThrow, writeInChunks } from "./write-in-chunks"

export const writeChangedProductsStepId = "catalog-sync-write-changed-products"

export interface ChangedProductsInput {
  /** The updates, adopted leftovers included (their ids and parts set by the workflow's `toWrite`). */
  products: ProductToUpdate[]
  placement: Placement
  concurrency: number
  /** Products the page already wrote (the failure judgement weighs them). */
  alreadyWritten: number
}

export const writeChangedProductsStep = createStep(writeChangedProductsStepId, async (input: ChangedProductsInput, { container }) => {
  const updates = await writeInChunks(input.products, input.concurrency, async (chunk) => {
    const { result } = await updateCatalogProductsWorkflow(container).run({ input: { products: chunk, placement: input.placement } })
    return result
  })
  const rejected = await rejectOrThrow(container, updates.failed, input.alreadyWritten + updates.written.length)
  const out: ChunkedWriteOutcome = { written: updates.written.map((w) => ({ catalogId: w.item.catalogId, result: w.result })), rejected }
  return new StepResponse(out)
})
