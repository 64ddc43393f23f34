// The page's changed products, and adopted crash leftovers (nothing of them is known: all parts
// are written), through the run's writer (src/shop-writer) with per-product containment. An
// update rewrites the same values when run again, so no compensation here.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Placement, ProductToUpdate } from "../page-input"
import { withWriteInput, type ChunkedWriteOutcome, type ProductsToWrite, type ToWrite } from "./page-types"
import { rejectOrThrow } from "./write-in-chunks"
import { peek, sealShared, type Sealed } from "./sealed"
import { shopWriter } from "../../shop-writer/choose-shop-writer"

export const writeChangedProductsStepId = "catalog-sync-write-changed-products"

export interface ChangedProductsInput {
  /** The updates, adopted leftovers included (their ids and parts set by the workflow's `toWrite`). */
  products: Sealed<ToWrite<ProductToUpdate>[]>
  /** The plan's write inputs (the products' own). */
  writeInputs: ProductsToWrite
  placement: Placement
  concurrency: number
  /** Products the page already wrote (the failure judgement weighs them). */
  alreadyWritten: number
}

export const writeChangedProductsStep = createStep(writeChangedProductsStepId, async (input: ChangedProductsInput, { container, context }) => {
  const products = peek(input.products).map((p) => withWriteInput(p, input.writeInputs))
  const writer = await shopWriter(container)
  const updates = await writer.updateProducts(products, input.placement, input.concurrency, context?.eventGroupId)
  const rejected = await rejectOrThrow(container, updates.failed, input.alreadyWritten + updates.written.length)
  const out: ChunkedWriteOutcome = {
    written: updates.written.map((w) => ({ catalogId: w.item.catalogId, result: w.result })),
    rejected,
    pricesOnly: updates.pricesOnly,
  }
  return new StepResponse(sealShared(out))
})
