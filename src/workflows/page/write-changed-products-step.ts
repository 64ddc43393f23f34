// The page's changed products, and adopted crash leftovers (nothing of them is known: all parts
// are written), by updateCatalogProductsWorkflow in concurrent chunks with per-product
// containment. An update rewrites the same values when run again, so no compensation here.
// Price-only changes go first, all in one bulk transaction (write-prices-in-bulk.ts), then field
// changes without size changes in another (write-fields-in-bulk.ts); those that do not fit a
// fast path, or all of a fast path's if its transaction fails, go through the workflow.
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Placement, ProductToUpdate } from "../page-input"
import { timed } from "../steps/profile"
import { updateCatalogProductsWorkflow } from "../update-catalog-products"
import type { ChunkedWriteOutcome } from "./page-types"
import { fieldsChangedWithoutVariants } from "./fields-only-changes"
import { pricesOnlyChanged } from "./price-only-changes"
import { writeFieldsInBulk, type FieldsOnlyOutcome } from "./write-fields-in-bulk"
import { rejectOrThrow, writeInChunks } from "./write-in-chunks"
import { writePricesInBulk, type PriceOnlyOutcome } from "./write-prices-in-bulk"
import { noteProductsWritten } from "./write-progress"
import { unseal, type Sealed } from "./sealed"

export const writeChangedProductsStepId = "catalog-sync-write-changed-products"

export interface ChangedProductsInput {
  /** The updates, adopted leftovers included (their ids and parts set by the workflow's `toWrite`). */
  products: Sealed<ProductToUpdate[]>
  placement: Placement
  concurrency: number
  /** Products the page already wrote (the failure judgement weighs them). */
  alreadyWritten: number
}

export const writeChangedProductsStep = createStep(writeChangedProductsStepId, async (input: ChangedProductsInput, { container }) => {
  const products = unseal(input.products)
  const candidates = products.filter(pricesOnlyChanged)
  let fast: PriceOnlyOutcome = { written: [], rest: candidates }
  if (candidates.length) try {
    fast = await timed(container, `bulk price-only write of ${candidates.length} products`, () => writePricesInBulk(container, candidates, input.placement))
    noteProductsWritten(fast.written.length)
  } catch (error) {
    // Nothing of it committed: the workflow writes them, with per-product containment.
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`catalog sync: bulk price write failed, ${candidates.length} price-only products go through the update workflow: ${(error as Error).message}`)
  }
  const inBulk = new Set(fast.written.map((w) => w.item.catalogId))
  const fieldCandidates = products.filter(fieldsChangedWithoutVariants)
  let fields: FieldsOnlyOutcome = { written: [], rest: fieldCandidates }
  if (fieldCandidates.length) try {
    fields = await timed(container, `bulk fields write of ${fieldCandidates.length} products`, () => writeFieldsInBulk(container, fieldCandidates, input.placement))
    noteProductsWritten(fields.written.length)
  } catch (error) {
    // Nothing of it committed (a handle another product holds, say): the workflow writes them.
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`catalog sync: bulk field write failed, ${fieldCandidates.length} products go through the update workflow: ${(error as Error).message}`)
  }
  const bulkWritten = new Set([...inBulk, ...fields.written.map((w) => w.item.catalogId)])
  const updates = await writeInChunks(
    products.filter((p) => !bulkWritten.has(p.catalogId)),
    input.concurrency,
    async (chunk) => {
      const { result } = await updateCatalogProductsWorkflow(container).run({ input: { products: chunk, placement: input.placement } })
      return result
    },
  )
  const written = [...fast.written, ...fields.written, ...updates.written]
  const rejected = await rejectOrThrow(container, updates.failed, input.alreadyWritten + written.length)
  const out: ChunkedWriteOutcome = {
    written: written.map((w) => ({ catalogId: w.item.catalogId, result: w.result })),
    rejected,
    pricesOnly: [...inBulk],
  }
  return new StepResponse(out)
})
