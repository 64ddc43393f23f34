// The page's changed products, and adopted crash leftovers (nothing of them is known: all parts
// are written), by updateCatalogProductsWorkflow in concurrent chunks with per-product
// containment. An update rewrites the same values when run again, so no compensation here.
// Price-only changes go first, all in one bulk transaction (write-prices-in-bulk.ts), then field
// changes without size changes in another (write-fields-in-bulk.ts), then changes of sizes in a
// third (write-sizes-in-bulk.ts); those that do not fit a fast path, or all of a fast path's if
// its transaction fails, go through the workflow.
import { checkWriteFence } from "../../bulk-write/write-fence"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { Placement, ProductToUpdate } from "../page-input"
import { timed } from "../steps/profile"
import { updateCatalogProductsWorkflow } from "../update-catalog-products"
import { withWriteInput, type ChunkedWriteOutcome, type FastPathOutcome, type ProductsToWrite, type ToWrite } from "./page-types"
import { fieldsChangedWithoutVariants } from "./fields-only-changes"
import { pricesOnlyChanged } from "./price-only-changes"
import { writeFieldsInBulk } from "./write-fields-in-bulk"
import { sizesChanged } from "./size-changes"
import { rejectOrThrow, writeInChunks } from "./write-in-chunks"
import { writePricesInBulk } from "./write-prices-in-bulk"
import { noteProductsWritten } from "./write-progress"
import { peek, sealShared, type Sealed } from "./sealed"
import { writeSizesInBulk } from "./write-sizes-in-bulk"
import { writePathOf } from "../write-path"
import { isLostFooting } from "../../sync/failure-class"
import { updateProductsThroughCoreFlowsWorkflow } from "../update-products-through-core-flows"

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

/** One fast path: its candidates in one bulk transaction; if it fails, nothing of it committed and none counts as written. */
async function writeFastPath(
  container: MedusaContainer,
  what: string,
  candidates: ProductToUpdate[],
  write: () => Promise<FastPathOutcome>
): Promise<Pick<FastPathOutcome, "written">> {
  if (!candidates.length) return { written: [] }
  try {
    const outcome = await timed(container, `bulk ${what} write of ${candidates.length} products`, write)
    noteProductsWritten(outcome.written.length)
    return outcome
  } catch (error) {
    // A lost database connection (or run lock) is no product's fault: the page fails and the run resumes.
    if (isLostFooting(error)) throw error
    // Nothing of it committed (a handle or SKU another product holds, say): the workflow writes them, with per-product containment.
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`catalog sync: bulk ${what} write failed, ${candidates.length} products go through the update workflow: ${(error as Error).message}`)
    return { written: [] }
  }
}

/**
 * The workflows path: every update through Medusa's own workflows, per chunk. Their events join
 * the page's event group (released when the page's workflow has committed all of it, the field
 * values it records included, so auto-lock does not take the sync's own product.updated for an
 * admin edit).
 */
async function writeThroughCoreFlows(container: MedusaContainer, input: ChangedProductsInput, products: ProductToUpdate[], eventGroupId: string | undefined) {
  const updates = await writeInChunks(products, input.concurrency, async (chunk) => {
    // Medusa's workflow commits on its own connections: the run's lock is checked before it starts.
    await checkWriteFence(container)
    const { result } = await updateProductsThroughCoreFlowsWorkflow(container).run({
      input: { products: chunk, placement: input.placement },
      ...(eventGroupId ? { context: { eventGroupId, preventReleaseEvents: true } } : {}),
    })
    return result
  })
  const rejected = await rejectOrThrow(container, updates.failed, input.alreadyWritten + updates.written.length)
  const written = new Set(updates.written.map((w) => w.item.catalogId))
  const out: ChunkedWriteOutcome = {
    written: updates.written.map((w) => ({ catalogId: w.item.catalogId, result: w.result })),
    rejected,
    pricesOnly: products.filter((p) => written.has(p.catalogId) && pricesOnlyChanged(p)).map((p) => p.catalogId),
  }
  return new StepResponse(sealShared(out))
}

export const writeChangedProductsStep = createStep(writeChangedProductsStepId, async (input: ChangedProductsInput, { container, context }) => {
  const { placement } = input
  const products = peek(input.products).map((p) => withWriteInput(p, input.writeInputs))
  if ((await writePathOf(container)) === "workflows") return writeThroughCoreFlows(container, input, products, context?.eventGroupId)
  const priceOnly = products.filter(pricesOnlyChanged)
  const fast = await writeFastPath(container, "price-only", priceOnly, () => writePricesInBulk(container, priceOnly, placement))
  const inBulk = new Set(fast.written.map((w) => w.item.catalogId))
  const fieldsOnly = products.filter(fieldsChangedWithoutVariants)
  const fields = await writeFastPath(container, "fields", fieldsOnly, () => writeFieldsInBulk(container, fieldsOnly, placement))
  const sizeChanges = products.filter(sizesChanged)
  const sizes = await writeFastPath(container, "sizes", sizeChanges, () => writeSizesInBulk(container, sizeChanges, placement))
  const bulkWritten = new Set([...inBulk, ...fields.written.map((w) => w.item.catalogId), ...sizes.written.map((w) => w.item.catalogId)])
  const updates = await writeInChunks(
    products.filter((p) => !bulkWritten.has(p.catalogId)),
    input.concurrency,
    async (chunk) => {
      await checkWriteFence(container)
      const { result } = await updateCatalogProductsWorkflow(container).run({ input: { products: chunk, placement } })
      return result
    }
  )
  const written = [...fast.written, ...fields.written, ...sizes.written, ...updates.written]
  const rejected = await rejectOrThrow(container, updates.failed, input.alreadyWritten + written.length)
  const out: ChunkedWriteOutcome = {
    written: written.map((w) => ({ catalogId: w.item.catalogId, result: w.result })),
    rejected,
    pricesOnly: [...inBulk],
  }
  return new StepResponse(sealShared(out))
})
