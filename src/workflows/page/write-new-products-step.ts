// The page's new products: all in one bulk transaction, or, when it rolls back on a product's
// data, by createCatalogProductsWorkflow in concurrent chunks with per-product containment
// (new-products-in-bulk.ts, write-in-chunks.ts). The step keeps no compensation of its own: the
// bulk transaction commits whole or not at all, and each chunk's workflow compensates itself; a
// product made here stays, and a page that fails later adopts it on the next run
// (find-crash-leftovers-step.ts), as after a crash.
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { failureReason } from "../../sync/write-failures"
import { createCatalogProductsWorkflow } from "../create-catalog-products"
import type { Placement, ProductToCreate } from "../page-input"
import { createInOneTransaction, writeNewProducts } from "./new-products-in-bulk"
import { withWriteInput, type ChunkedWriteOutcome, type ProductsToWrite, type ToWrite } from "./page-types"
import { rejectOrThrow, writeInChunks } from "./write-in-chunks"
import { noteProductsWritten } from "./write-progress"
import { peek, sealShared, type Sealed } from "./sealed"
import { writePathOf } from "../write-path"
import { checkWriteFence } from "../../bulk-write/write-fence"
import { createProductsThroughCoreFlowsWorkflow } from "../create-products-through-core-flows"

export const writeNewProductsStepId = "catalog-sync-write-new-products"

export const writeNewProductsStep = createStep(
  writeNewProductsStepId,
  async (input: { products: Sealed<ToWrite<ProductToCreate>[]>; writeInputs: ProductsToWrite; placement: Placement; concurrency: number }, { container }) => {
    const products = peek(input.products).map((p) => withWriteInput(p, input.writeInputs))
    if ((await writePathOf(container)) === "workflows") {
      // Medusa's own createProductsWorkflow, per chunk (its events go out when the chunk commits).
      const made = await writeInChunks(products, input.concurrency, async (chunk) => {
        // Medusa's workflow commits on its own connections: the run's lock is checked before it starts.
        await checkWriteFence(container)
        const { result } = await createProductsThroughCoreFlowsWorkflow(container).run({ input: { products: chunk, placement: input.placement } })
        return result
      })
      const rejected = await rejectOrThrow(container, made.failed, made.written.length)
      return new StepResponse(
        sealShared({ written: made.written.map((w) => ({ catalogId: w.item.catalogId, result: w.result })), rejected } as ChunkedWriteOutcome)
      )
    }
    const creates = await writeNewProducts(products, {
      inOneTransaction: (products) => createInOneTransaction(container, products, input.placement),
      inChunks: (products) =>
        writeInChunks(products, input.concurrency, async (chunk) => {
          await checkWriteFence(container)
          const { result } = await createCatalogProductsWorkflow(container).run({ input: { products: chunk, placement: input.placement } })
          return result
        }),
      noteWritten: noteProductsWritten,
    })
    if (creates.rolledBack) {
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(
          `catalog sync: the page's new products (${products.length}) were written one by one (the bulk write rolled back: ${failureReason(creates.rolledBack)})`
        )
    }
    const rejected = await rejectOrThrow(container, creates.failed, creates.written.length)
    const out: ChunkedWriteOutcome = { written: creates.written.map((w) => ({ catalogId: w.item.catalogId, result: w.result })), rejected }
    return new StepResponse(sealShared(out))
  }
)
