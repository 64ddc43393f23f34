// How a page's new products are written: all in one bulk transaction (src/bulk-write), which
// writes the same rows as the core-flows writer's create without the module services' per-row
// work (a full sync then costs the app about a third of the CPU per product). When that transaction
// fails on a product's data (a handle or SKU the database refuses, say), it rolled back and wrote
// nothing, so the page's new products go through the core-flows writer instead (write-in-chunks.ts), where the
// one bad product is rejected alone and the others are written. Products the product module
// would refuse before the database (bulk-new-products.ts) take the workflow way from the start.
import type { MedusaContainer } from "@medusajs/framework/types"
import { writePageInBulk } from "../../bulk-write"
import { classifyFailure } from "../../sync/write-failures"
import { isLostFooting } from "../../sync/failure-class"
import { timed } from "../steps/profile"
import type { CreatedProduct, Placement, ProductToCreate } from "../page-input"
import { bulkPlacementOf, bulkProductOf, createdProductOf, refusedByProductModule } from "./bulk-new-products"
import type { ChunkedWrite } from "./write-in-chunks"

/** Created products (input order), or the error of a transaction that rolled back. */
export type BulkOutcome = { created: CreatedProduct[] } | { rolledBack: unknown }

export async function createInOneTransaction(container: MedusaContainer, products: ProductToCreate[], placement: Placement): Promise<BulkOutcome> {
  let inserted = false
  try {
    const created = await timed(container, "bulk.createProducts", () =>
      writePageInBulk(container, async (page) => {
        const rows = await page.createProducts(products.map(bulkProductOf), bulkPlacementOf(placement))
        inserted = true
        return rows
      })
    )
    return { created: products.map((p, i) => createdProductOf(p, created[i])) }
  } catch (error) {
    // Failed before its inserts were done: rolled back, nothing written, the workflow way may
    // try. After them (the commit or the events failed), the rows may be there: the page fails
    // and its replay adopts them (prepare-page-step.ts). A system failure fails the page,
    // a lost database connection or run lock above all (isLostFooting).
    if (!inserted && classifyFailure(error) !== "system" && !isLostFooting(error)) return { rolledBack: error }
    throw error
  }
}

export interface NewProductWriters {
  inOneTransaction(products: ProductToCreate[]): Promise<BulkOutcome>
  /** The workflow way, with per-product containment. */
  inChunks(products: ProductToCreate[]): Promise<ChunkedWrite<ProductToCreate, CreatedProduct>>
  /** Moves the run's progress (write-progress.ts). */
  noteWritten(count: number): void
}

export interface NewProductsWritten extends ChunkedWrite<ProductToCreate, CreatedProduct> {
  /** Why the bulk transaction rolled back, when it did. */
  rolledBack: unknown
}

export async function writeNewProducts(products: ProductToCreate[], writers: NewProductWriters): Promise<NewProductsWritten> {
  const together = products.filter((p) => !refusedByProductModule(p))
  let alone = products.filter(refusedByProductModule)
  const out: NewProductsWritten = { written: [], failed: [], rolledBack: null }
  if (together.length) {
    const bulk = await writers.inOneTransaction(together)
    if ("created" in bulk) {
      writers.noteWritten(together.length)
      out.written = together.map((item, i) => ({ item, result: bulk.created[i] }))
    } else {
      out.rolledBack = bulk.rolledBack
      alone = products
    }
  }
  if (alone.length) {
    const chunked = await writers.inChunks(alone)
    out.written.push(...chunked.written)
    out.failed = chunked.failed
  }
  // Input order, as the workflow way returns them.
  const order = new Map(products.map((p, i) => [p, i]))
  out.written.sort((a, b) => order.get(a.item)! - order.get(b.item)!)
  return out
}
