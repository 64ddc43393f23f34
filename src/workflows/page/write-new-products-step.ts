// The page's new products through the run's writer (src/shop-writer) with per-product
// containment. The step keeps no compensation of its own: each write commits whole or not at
// all (a bulk transaction, or a chunk's workflow that compensates itself); a product made here
// stays, and a page that fails later adopts it on the next run (find-crash-leftovers-step.ts), as
// after a crash.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Placement, ProductToCreate } from "../page-input"
import { withWriteInput, type ChunkedWriteOutcome, type ProductsToWrite, type ToWrite } from "./page-types"
import { rejectOrThrow } from "./write-in-chunks"
import { peek, sealShared, type Sealed } from "./sealed"
import { shopWriter } from "../../shop-writer/choose-shop-writer"

export const writeNewProductsStepId = "catalog-sync-write-new-products"

export const writeNewProductsStep = createStep(
  writeNewProductsStepId,
  async (input: { products: Sealed<ToWrite<ProductToCreate>[]>; writeInputs: ProductsToWrite; placement: Placement; concurrency: number }, { container }) => {
    const products = peek(input.products).map((p) => withWriteInput(p, input.writeInputs))
    const creates = await (await shopWriter(container)).createProducts(products, input.placement, input.concurrency)
    const rejected = await rejectOrThrow(container, creates.failed, creates.written.length)
    const out: ChunkedWriteOutcome = { written: creates.written.map((w) => ({ catalogId: w.item.catalogId, result: w.result })), rejected }
    return new StepResponse(sealShared(out))
  }
)
