// The page's product writes through the run's writer (src/shop-writer), with per-product
// containment (write-in-chunks.ts): every create and update gets its SKUs (plain SKUs unless
// another product holds one; an adopted leftover's own SKUs count as its own), locked fields
// leave the updates, then the new products are created and the changed ones updated (adopted
// crash leftovers with them: nothing of them is known, so all their parts are written).
//
// No compensation: each write commits whole or not at all (a bulk transaction, or a chunk's
// workflow that compensates itself); a product made here stays, and a page that fails later
// adopts it on the next run (prepare-page-step.ts), as after a crash; an update rewrites the same
// values when run again. Returns the written products for the `pageWritten` hook.
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { shopVariantSkus } from "../../bulk-write/reads/variant-skus"
import { shopWriter } from "../../shop-writer/choose-shop-writer"
import { ALL_PARTS } from "../../sync/fingerprint"
import type { PlannedUpsert } from "../../sync/plan-page"
import type { ProductToCreate, ProductToUpdate } from "../page-input"
import { resolveVariantSkus } from "../resolve-variant-skus"
import { lockedPageWrites } from "./field-lock-writes"
import { openPage, type PageSettings } from "./page-context"
import { skuSubject, writtenProducts, type PlannedRecord, type PlannedWrite } from "./page-types"
import { rejectOrThrow } from "./write-in-chunks"

export const writeProductsStepId = "catalog-sync-write-products"

/** The product with its sizes' SKUs: new objects down to the variants, the plan's own below them (read only). */
function withSkus<P extends { catalogId: string; input: PlannedUpsert["input"] }>(p: P, skus: Record<string, Record<string, string>>): P {
  const own = skus[p.catalogId] ?? {}
  return { ...p, input: { ...p.input, variants: p.input.variants.map((v) => ({ ...v, sku: own[v.sizeKey] ?? v.sku })) } }
}

export const writeProductsStep = createStep(
  writeProductsStepId,
  async (input: { pageKey: string } & Pick<PageSettings, "placement" | "writeConcurrency">, { container, context }) => {
    const open = openPage(input.pageKey)
    const { records, leftovers, locks } = open.prepared!
    const adopted = leftovers.adopted
    // The product's write input: the plan's own card and stock (read only).
    const writeInput = (p: PlannedRecord): ProductToCreate => {
      const { catalogId, input: card, stock } = open.planned.get(p.catalogId)!
      return { catalogId, input: card, stock }
    }

    const subjects = [...records.create, ...records.update].map(skuSubject)
    await resolveVariantSkus(shopVariantSkus(container), subjects, new Map(Object.entries(adopted)))
    const skus = Object.fromEntries(subjects.map((p) => [p.catalogId, Object.fromEntries(p.input.variants.map((v) => [v.sizeKey, v.sku]))]))

    const changed = (p: PlannedRecord): ProductToUpdate => {
      const orphan = adopted[p.catalogId] ?? null
      return {
        ...writeInput(p),
        productId: orphan ?? p.row!.product_id!,
        variantIds: orphan ? {} : (p.row!.variant_ids ?? {}),
        inventoryItemIds: orphan ? {} : (p.row!.inventory_item_ids ?? {}),
        partsToWrite: orphan ? ALL_PARTS : p.partsToWrite,
      }
    }
    const fresh = records.create.filter((p) => !adopted[p.catalogId]).map(writeInput)
    const locked = lockedPageWrites({ fresh, changed: [...records.update, ...records.create.filter((p) => adopted[p.catalogId])].map(changed) }, locks)

    const writer = await shopWriter(container)
    const creates = await writer.createProducts(
      fresh.map((p) => withSkus(p, skus)),
      input.placement,
      input.writeConcurrency
    )
    const createRejected = await rejectOrThrow(container, creates.failed, creates.written.length)
    // The updates' events join the page's event group: they go out once the whole page has committed.
    const updates = await writer.updateProducts(
      locked.changed.map((p) => withSkus(p, skus)),
      input.placement,
      input.writeConcurrency,
      context?.eventGroupId
    )
    const updateRejected = await rejectOrThrow(container, updates.failed, creates.written.length + updates.written.length)

    const asWrite = (w: { item: { catalogId: string }; result: PlannedWrite["result"] }): PlannedWrite => ({ catalogId: w.item.catalogId, result: w.result })
    // Adopted leftovers count (and get their map rows) as created.
    const created = [...creates.written.map(asWrite), ...updates.written.filter((w) => adopted[w.item.catalogId]).map(asWrite)]
    const updated = updates.written.filter((w) => !adopted[w.item.catalogId]).map(asWrite)
    const products = writtenProducts([...created, ...updated], open.planned)
    open.writes = {
      created,
      updated,
      rejected: [...createRejected, ...updateRejected],
      products,
      pricesOnly: updates.pricesOnly ?? [],
      fieldValues: { held: locked.held, written: locked.written },
      lockedPriceSizes: locked.lockedPriceSizes,
    }
    return new StepResponse(products.map((w) => ({ catalogId: w.catalogId, productId: w.productId, variantIds: w.variantIdsBySize })))
  }
)
