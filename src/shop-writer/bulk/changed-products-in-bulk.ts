// The bulk writer's fast paths for changed products, each one transaction: price-only changes
// first (write-prices-in-bulk.ts), then field changes without size changes
// (write-fields-in-bulk.ts), then changes of sizes (write-sizes-in-bulk.ts). A fast path whose
// transaction fails committed nothing: its products are left to the one-by-one way.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { isLostFooting } from "../../sync/failure-class"
import type { CreatedProduct, Placement, ProductToUpdate } from "../../workflows/page-input"
import type { FastPathOutcome } from "../../workflows/page/page-types"
import { fieldsChangedWithoutVariants } from "../../workflows/page/fields-only-changes"
import { pricesOnlyChanged } from "../../workflows/page/price-only-changes"
import { sizesChanged } from "../../workflows/page/size-changes"
import { writeFieldsInBulk } from "../../workflows/page/write-fields-in-bulk"
import { writePricesInBulk } from "../../workflows/page/write-prices-in-bulk"
import { writeSizesInBulk } from "../../workflows/page/write-sizes-in-bulk"
import { noteProductsWritten } from "../../workflows/page/write-progress"
import { timed } from "../../workflows/steps/profile"

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
    // Nothing of it committed (a handle or SKU another product holds, say): the one-by-one way writes them, with per-product containment.
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`catalog sync: bulk ${what} write failed, ${candidates.length} products go through the update workflow: ${(error as Error).message}`)
    return { written: [] }
  }
}

export interface ChangedInBulk {
  outcomes: { item: ProductToUpdate; result: CreatedProduct }[]
  /** Catalog ids the fast paths wrote. */
  written: Set<string>
  /** Catalog ids written as price-only changes. */
  pricesOnly: string[]
}

export async function writeChangedInBulk(container: MedusaContainer, products: ProductToUpdate[], placement: Placement): Promise<ChangedInBulk> {
  const priceOnly = products.filter(pricesOnlyChanged)
  const prices = await writeFastPath(container, "price-only", priceOnly, () => writePricesInBulk(container, priceOnly, placement))
  const fieldsOnly = products.filter(fieldsChangedWithoutVariants)
  const fields = await writeFastPath(container, "fields", fieldsOnly, () => writeFieldsInBulk(container, fieldsOnly, placement))
  const sizeChanges = products.filter(sizesChanged)
  const sizes = await writeFastPath(container, "sizes", sizeChanges, () => writeSizesInBulk(container, sizeChanges, placement))
  const outcomes = [...prices.written, ...fields.written, ...sizes.written]
  return {
    outcomes,
    written: new Set(outcomes.map((w) => w.item.catalogId)),
    pricesOnly: prices.written.map((w) => w.item.catalogId),
  }
}
