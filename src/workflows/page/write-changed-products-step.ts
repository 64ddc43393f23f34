// The page's changed products, and adopted crash leftovers (nothing of them is known: all parts
// are written), by updateCatalogProductsWorkflow in concurrent chunks with per-product
// containment. An update rewrites the same values when run again, so no compensation here.
// Price-only changes go first, all in one bulk transaction (write-prices-in-bulk.ts); those that
// do not fit the fast path, or all of them if that transaction fails, go through the workflow.
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Placement, ProductToUpdate } from "../page-input"
import { timed } from "../steps/profile"
import { updateCatalogProductsWorkflow } from "../update-catalog-products"
import type { ChunkedWriteOutcome } from "./page-types"
import { pricesOnlyChanged } from "./price-only-changes"
import { rejectOrThrow, writeInChunks } from "./write-in-chunks"
import { writePricesInBulk, type PriceOnlyOutcome } from "./write-prices-in-bulk"
import { noteProductsWritten } from "./write-progress"

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
  const candidates = input.products.filter(pricesOnlyChanged)
  let fast: PriceOnlyOutcome = { written: [], rest: candidates }
  if (candidates.length) try {
    fast = await timed(container, `bulk price-only write of ${candidates.length} products`, () => writePricesInBulk(container, candidates, input.placement))
    noteProductsWritten(fast.written.length)
  } catch (error) {
    // Nothing of it committed: the workflow writes them, with per-product containment.
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`catalog sync: bulk price write failed, ${candidates.length} price-only products go through the update workflow: ${(error as Error).message}`)
  }
  const inBulk = new Set(fast.written.map((w) => w.item.catalogId))
  const updates = await writeInChunks(
    input.products.filter((p) => !inBulk.has(p.catalogId)),
    input.concurrency,
    async (chunk) => {
      const { result } = await updateCatalogProductsWorkflow(container).run({ input: { products: chunk, placement: input.placement } })
      return result
    },
  )
  const written = [...fast.written, ...updates.written]
  const rejected = await rejectOrThrow(container, updates.failed, input.alreadyWritten + written.length)
  const out: ChunkedWriteOutcome = {
    written: written.map((w) => ({ catalogId: w.item.catalogId, result: w.result })),
    rejected,
    pricesOnly: [...inBulk],
  }
  return new StepResponse(out)
})
