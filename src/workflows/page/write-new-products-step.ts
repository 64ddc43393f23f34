// The page's new products, written by createCatalogProductsWorkflow in concurrent chunks with
// per-product containment (write-in-chunks.ts). Each chunk's workflow compensates itself when it
// fails, so this step keeps no compensation of its own: a product it made stays, and a page that
// fails later adopts it on the next run (find-crash-leftovers-step.ts), as after a crash.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { createCatalogProductsWorkflow } from "../create-catalog-products"
import type { Placement, ProductToCreate } from "../page-input"
import type { ChunkedWriteOutcome } from "./page-types"
import { rejectOrThrow, writeInChunks } from "./write-in-chunks"

export const writeNewProductsStepId = "catalog-sync-write-new-products"

export const writeNewProductsStep = createStep(
  writeNewProductsStepId,
  async (input: { products: ProductToCreate[]; placement: Placement; concurrency: number }, { container }) => {
    const creates = await writeInChunks(input.products, input.concurrency, async (chunk) => {
      const { result } = await createCatalogProductsWorkflow(container).run({ input: { products: chunk, placement: input.placement } })
      return result
    })
    const rejected = await rejectOrThrow(container, creates.failed, creates.written.length)
    const out: ChunkedWriteOutcome = { written: creates.written.map((w) => ({ catalogId: w.item.catalogId, result: w.result })), rejected }
    return new StepResponse(out)
  }
)
