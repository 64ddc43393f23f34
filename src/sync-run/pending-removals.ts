// Finishes the removals an open order held back (bulk-write/open-orders.ts), at the start of
// every run: a size or product whose stock nothing reserves any more (its order fulfilled,
// cancelled or returned) is removed now, as the page would have removed it; one the catalog
// sent again since (its map row claims it) stays, restored; one still reserved stays off sale
// (taken down again: a cancelled order gives its reservation back to the stocked quantity).
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { BULK_EVENTS, removeVariants, reservedVariantIds, writePageInBulk, type BulkPage } from "../bulk-write"
import { liveIdsOf, liveVariantsOf, optionValuesOfVariants, pruneSizeValues } from "../bulk-write/finish-removals"
import { dropRowsOfRemovedProducts } from "../modules/catalog_sync/sql/removed-products"
import { claimedByMap, mapRowsOfProducts, updateMapRows } from "../modules/catalog_sync/sql/product-map"
import { insertChangeRows } from "../modules/catalog_sync/sql/change-log"
import { productTitles } from "../bulk-write/reads/product-titles"
import { removedChangeRow, sizesRemovedChangeRow } from "../sync/change-rows"
import { finishPendingRows, pendingRemovalRows, type PendingRemovalRow as PendingRow } from "../modules/catalog_sync/sql/pending-removals"

export interface FinishedRemovals {
  removed: number
  restored: number
  stillKept: number
  /** The products this call removed (the run counts and logs them as its removals). */
  removedProducts: { catalog_id: string; product_id: string }[]
  /** Products this call removed sizes of (the run counts and logs each as updated: its sizes changed). */
  sizesRemovedOf: { catalog_id: string; product_id: string }[]
}

async function finishSizes(page: BulkPage, rows: PendingRow[], out: FinishedRemovals): Promise<string[]> {
  const trx = page.trx
  const done: string[] = []
  if (!rows.length) return done
  const live = await liveIdsOf(
    trx,
    "product_variant",
    rows.map((r) => r.subject_id)
  )
  const claimed = await claimedByMap(trx, [...new Set(rows.map((r) => r.product_id))])
  const reserved = await reservedVariantIds(trx, [...live])
  const removable: string[] = []
  for (const r of rows) {
    if (!live.has(r.subject_id)) done.push(r.id)
    else if (claimed.variants.has(r.subject_id)) {
      done.push(r.id)
      out.restored++
    } else if (reserved.has(r.subject_id)) out.stillKept++
    else {
      removable.push(r.subject_id)
      done.push(r.id)
    }
  }
  await page.takeOffSale([...reserved].filter((id) => !claimed.variants.has(id)))
  if (removable.length) {
    const values = await optionValuesOfVariants(trx, removable)
    const removed = await removeVariants(trx, removable)
    await pruneSizeValues(trx, values)
    page.recordEvents(BULK_EVENTS.variantDeleted, removed.variantIds)
    page.recordEvents(BULK_EVENTS.inventoryItemDeleted, removed.inventoryItemIds)
    page.productsUpdated([...new Set(values.map((v) => v.product_id))])
    out.removed += removed.variantIds.length
    const gone = new Set(removed.variantIds)
    const products = [...new Set(rows.filter((r) => gone.has(r.subject_id)).map((r) => r.product_id))]
    const mapped = new Map((await mapRowsOfProducts(trx, products)).map((m) => [m.product_id, m.catalog_id]))
    for (const product_id of products) {
      const catalog_id = mapped.get(product_id) ?? rows.find((r) => r.product_id === product_id && r.catalog_id)?.catalog_id
      if (catalog_id) out.sizesRemovedOf.push({ catalog_id, product_id })
    }
  }
  return done
}

async function finishProducts(page: BulkPage, rows: PendingRow[], out: FinishedRemovals): Promise<{ done: string[]; removedProductIds: string[] }> {
  const trx = page.trx
  const done: string[] = []
  if (!rows.length) return { done, removedProductIds: [] }
  const live = await liveIdsOf(
    trx,
    "product",
    rows.map((r) => r.subject_id)
  )
  const claimed = await claimedByMap(trx, [...live])
  const candidates: string[] = []
  for (const r of rows) {
    if (!live.has(r.subject_id)) done.push(r.id)
    else if (claimed.products.has(r.subject_id)) {
      done.push(r.id)
      out.restored++
    } else candidates.push(r.subject_id)
  }
  const variants = await liveVariantsOf(trx, candidates)
  const reserved = await reservedVariantIds(
    trx,
    variants.map((v) => v.id)
  )
  const stillReserved = new Set(variants.filter((v) => reserved.has(v.id)).map((v) => v.product_id))
  out.stillKept += stillReserved.size
  await page.takeOffSale(variants.filter((v) => stillReserved.has(v.product_id)).map((v) => v.id))
  const free = candidates.filter((id) => !stillReserved.has(id))
  // removeProducts checks the reservations again in this transaction (it keeps what is reserved).
  const result = await page.removeProducts(free)
  const kept = new Set(result.keptForOrders)
  out.removed += result.productIds.length
  const removedIds = new Set(result.productIds)
  for (const r of rows) if (removedIds.has(r.subject_id) && r.catalog_id) out.removedProducts.push({ catalog_id: r.catalog_id, product_id: r.subject_id })
  for (const r of rows) if (free.includes(r.subject_id) && !kept.has(r.subject_id)) done.push(r.id)
  return { done, removedProductIds: result.productIds }
}

export async function finishPendingRemovals(container: MedusaContainer, logger: Logger, runId?: string): Promise<FinishedRemovals> {
  const out: FinishedRemovals = { removed: 0, restored: 0, stillKept: 0, removedProducts: [], sizesRemovedOf: [] }
  const rows = await pendingRemovalRows(container)
  if (!rows.length) return out
  // One transaction: the removals, their map rows and the pending rows they finish.
  await writePageInBulk(container, async (page) => {
    const doneSizes = await finishSizes(
      page,
      rows.filter((r) => r.kind === "size"),
      out
    )
    const { done: doneProducts, removedProductIds } = await finishProducts(
      page,
      rows.filter((r) => r.kind === "product"),
      out
    )
    // A removed product's map row as a removal leaves it (fingerprints forgotten, no product).
    if (removedProductIds.length) {
      const mapRows = await mapRowsOfProducts(page.trx, removedProductIds)
      await updateMapRows(
        page.trx,
        mapRows.map(({ id }) => ({
          id,
          status: "removed",
          fingerprint: null,
          stock_fingerprint: null,
          product_id: null,
          variant_ids: null,
          inventory_item_ids: null,
        }))
      )
      await dropRowsOfRemovedProducts(page.trx, { catalogIds: mapRows.map((r) => r.catalog_id), productIds: removedProductIds })
    }
    const done = [...doneSizes, ...doneProducts]
    await finishPendingRows(page.trx, done)
  })
  // The run that finishes a removal names it in its change log, as it names the removals it
  // applies itself: a removed product, or a product whose sizes it removed (an update of its sizes;
  // not when the whole product went too).
  const gone = new Set(out.removedProducts.map((r) => r.product_id))
  out.sizesRemovedOf = out.sizesRemovedOf.filter((r) => !gone.has(r.product_id))
  if (runId && (out.removedProducts.length || out.sizesRemovedOf.length)) {
    const titles = await productTitles(
      container,
      [...out.removedProducts, ...out.sizesRemovedOf].map((r) => r.product_id)
    )
    await insertChangeRows(container, runId, [
      ...out.removedProducts.map((r) => removedChangeRow(r, titles.get(r.product_id) ?? null)),
      ...out.sizesRemovedOf.map((r) => sizesRemovedChangeRow(r, titles.get(r.product_id) ?? null)),
    ])
  }
  logger.info(
    `catalog sync: removals held for open orders: ${out.removed} finished, ${out.restored} restored by the catalog, ${out.stillKept} still kept for an open order`
  )
  return out
}

/**
 * Takes every size still pending removal off sale again (not one the catalog sent again since):
 * an order cancelled, a fulfillment cancelled or a return received gives stock back to the
 * stocked quantity, which would put a size the catalog no longer sells on sale until the next run.
 */
export async function keepPendingOffSale(container: MedusaContainer): Promise<number> {
  const rows = await pendingRemovalRows(container)
  if (!rows.length) return 0
  return writePageInBulk(container, async (page) => {
    const sizes = rows.filter((r) => r.kind === "size")
    const products = rows.filter((r) => r.kind === "product").map((r) => r.subject_id)
    const claimed = await claimedByMap(page.trx, [...new Set(rows.map((r) => r.product_id))])
    const ofProducts = products.length
      ? await liveVariantsOf(
          page.trx,
          products.filter((id) => !claimed.products.has(id))
        )
      : []
    const ids = [...sizes.map((r) => r.subject_id).filter((id) => !claimed.variants.has(id)), ...ofProducts.map((v) => v.id)]
    return (await page.takeOffSale(ids)).length
  })
}
