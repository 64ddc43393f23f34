// The page's new products, written by createCatalogProductsWorkflow in concurrent chunks with
// per-product containment (write-in-chunks.ts). Each chunk's workflow compensates itself when it
// fails, so this step keeps no compensation of its own: a product it made stays, and a page that
// fails later adopts it on the next run (find-crash-leftovers-step.ts), as after a crash.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { PlannedUpsert } from "../../sync/plan-page"
import { createCatalogProductsWorkflow } from "../create-catalog-products"
import type { Placement } from "../page-input"
import type { ChunkedWriteOutcome } from "./page-types"
import { rejectOrThrow, writeInChunks } from "./write-in-chunks"

export const writeNewProductsStepId = "catalog-sync-write-new-products"

export function withoutDetails({ details: _details, ...rest }: PlannedUpsert["input"]) {
  return rest
}

export const writeNewProductsStep = createStep(
  writeNewProductsStepId,
  async (input: { products: PlannedUpsert[]; placement: Placement; concurrency: number }, { container }) => {
    const creates = await writeInChunks(input.products, input.concurrency, async (chunk) => {
      const { result } = await createCatalogProductsWorkflow(container).run({
        input: {
          products: chunk.map((p) => ({ catalogId: p.catalogId, input: withoutDetails(p.input), stock: p.stock })),
          placement: input.placement,
        },
      })
      return result
    })
    const rejected = await rejectOrThrow(container, creates.failed, creates.written.length)
    const out: ChunkedWriteOutcome = { written: creates.written.map((w) => ({ plan: w.item, result: w.result })), rejected }
    return new StepResponse(out)
  }
)
