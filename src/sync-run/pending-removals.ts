// Finishes the removals an open order held back (bulk-write/open-orders.ts), at the start of
// every run: a size or product whose stock nothing reserves any more (its order fulfilled,
// cancelled or returned) is removed now, as the page would have removed it; one the catalog
// sent again since (its map row claims it) stays, restored; one still reserved stays off sale
// (taken down again: a cancelled order gives its reservation back to the stocked quantity).
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import type { Knex } from "knex"
import { journal } from "../bulk-write/row-journal"
import { BULK_EVENTS, PENDING_REMOVAL_TABLE, removeVariants, reservedVariantIds, softDelete, valuesInUse, writePageInBulk, type BulkPage } from "../bulk-write"
import { updateMapRows } from "../workflows/page/product-map-rows"
import { knexOf } from "../bulk-write/sql"

interface PendingRow {
  id: string
  kind: "size" | "product"
  subject_id: string
  product_id: string
}

export interface FinishedRemovals {
  removed: number
  restored: number
  stillKept: number
}

/** Variant ids the product map claims for a size of an active product (the catalog has them again). */
async function claimedByMap(trx: Knex.Transaction, productIds: string[]): Promise<{ variants: Set<string>; products: Set<string> }> {
  const rows: { product_id: string; variant_ids: Record<string, string> | null }[] = await trx("mcs_product_map")
    .select("product_id", "variant_ids")
    .whereIn("product_id", productIds)
    .where("status", "active")
    .whereNull("deleted_at")
  return { variants: new Set(rows.flatMap((r) => Object.values(r.variant_ids ?? {}))), products: new Set(rows.map((r) => r.product_id)) }
}

/** The lost sizes' option values leave their product once no live variant uses them (as the prune step). */
async function pruneSizeValues(trx: Knex.Transaction, removed: { variant_id: string; product_id: string; option_value_id: string }[]): Promise<void> {
  if (!removed.length) return
  const inUse = await valuesInUse(trx, [...new Set(removed.map((r) => r.product_id))])
  const stale = removed.filter((r) => !inUse.has(r.option_value_id))
  if (!stale.length) return
  const { rows } = await trx.raw(
    `delete from product_product_option_value j using product_product_option ppo
      where j.product_product_option_id = ppo.id and ppo.deleted_at is null
        and (ppo.product_id, j.product_option_value_id) in (select * from unnest(?::text[], ?::text[]))
      returning j.id`,
    [stale.map((s) => s.product_id), stale.map((s) => s.option_value_id)],
  )
  journal(trx, "product_product_option_value", "deleted", (rows as { id: string }[]).map((r) => r.id))
  const own: { id: string }[] = await trx("product_option_value as ov")
    .join("product_option as o", "o.id", "ov.option_id")
    .select("ov.id")
    .whereIn("ov.id", stale.map((s) => s.option_value_id))
    .andWhere("o.is_exclusive", true)
  await softDelete(trx, "product_option_value", "id", own.map((r) => r.id))
}

async function finishSizes(page: BulkPage, rows: PendingRow[], out: FinishedRemovals): Promise<string[]> {
  const trx = page.trx
  const done: string[] = []
  if (!rows.length) return done
  const live = new Set(
    ((await trx("product_variant").select("id").whereIn("id", rows.map((r) => r.subject_id)).whereNull("deleted_at")) as { id: string }[]).map((r) => r.id),
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
    const values: { variant_id: string; product_id: string; option_value_id: string }[] = await trx("product_variant_option as pvo")
      .join("product_variant as v", "v.id", "pvo.variant_id")
      .select("pvo.variant_id", "v.product_id", "pvo.option_value_id")
      .whereIn("pvo.variant_id", removable)
    const removed = await removeVariants(trx, removable)
    await pruneSizeValues(trx, values)
    page.recordEvents(BULK_EVENTS.variantDeleted, removed.variantIds)
    page.recordEvents(BULK_EVENTS.inventoryItemDeleted, removed.inventoryItemIds)
    page.productsUpdated([...new Set(values.map((v) => v.product_id))])
    out.removed += removed.variantIds.length
  }
  return done
}

async function finishProducts(page: BulkPage, rows: PendingRow[], out: FinishedRemovals): Promise<{ done: string[]; removedProductIds: string[] }> {
  const trx = page.trx
  const done: string[] = []
  if (!rows.length) return { done, removedProductIds: [] }
  const live = new Set(
    ((await trx("product").select("id").whereIn("id", rows.map((r) => r.subject_id)).whereNull("deleted_at")) as { id: string }[]).map((r) => r.id),
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
  const variants: { id: string; product_id: string }[] = candidates.length
    ? await trx("product_variant").select("id", "product_id").whereIn("product_id", candidates).whereNull("deleted_at")
    : []
  const reserved = await reservedVariantIds(trx, variants.map((v) => v.id))
  const stillReserved = new Set(variants.filter((v) => reserved.has(v.id)).map((v) => v.product_id))
  out.stillKept += stillReserved.size
  await page.takeOffSale(variants.filter((v) => stillReserved.has(v.product_id)).map((v) => v.id))
  const free = candidates.filter((id) => !stillReserved.has(id))
  // removeProducts checks the reservations again in this transaction (it keeps what is reserved).
  const result = await page.removeProducts(free)
  const kept = new Set(result.keptForOrders)
  out.removed += result.productIds.length
  for (const r of rows) if (free.includes(r.subject_id) && !kept.has(r.subject_id)) done.push(r.id)
  return { done, removedProductIds: result.productIds }
}

export async function finishPendingRemovals(container: MedusaContainer, logger: Logger): Promise<FinishedRemovals> {
  const out: FinishedRemovals = { removed: 0, restored: 0, stillKept: 0 }
  const db = knexOf(container)
  const rows: PendingRow[] = await db(PENDING_REMOVAL_TABLE).select("id", "kind", "subject_id", "product_id").whereNull("deleted_at").orderBy("id")
  if (!rows.length) return out
  // One transaction: the removals, their map rows and the pending rows they finish.
  await writePageInBulk(container, async (page) => {
    const doneSizes = await finishSizes(page, rows.filter((r) => r.kind === "size"), out)
    const { done: doneProducts, removedProductIds } = await finishProducts(page, rows.filter((r) => r.kind === "product"), out)
    // A removed product's map row as a removal leaves it (fingerprints forgotten, no product).
    if (removedProductIds.length) {
      const mapRows: { id: string }[] = await page.trx("mcs_product_map").select("id").whereIn("product_id", removedProductIds).whereNull("deleted_at")
      await updateMapRows(
        page.trx,
        mapRows.map((r) => ({ id: r.id, status: "removed", fingerprint: null, stock_fingerprint: null, product_id: null, variant_ids: null, inventory_item_ids: null })),
      )
    }
    const done = [...doneSizes, ...doneProducts]
    if (done.length) await page.trx(PENDING_REMOVAL_TABLE).whereIn("id", done).whereNull("deleted_at").update({ deleted_at: page.trx.fn.now(), updated_at: page.trx.fn.now() })
  })
  logger.info(
    `catalog sync: removals held for open orders: ${out.removed} finished, ${out.restored} restored by the catalog, ${out.stillKept} still kept for an open order`,
  )
  return out
}

/**
 * Takes every size still pending removal off sale again (not one the catalog sent again since):
 * an order cancelled, a fulfillment cancelled or a return received gives stock back to the
 * stocked quantity, which would put a size the catalog no longer sells on sale until the next run.
 */
export async function keepPendingOffSale(container: MedusaContainer): Promise<number> {
  const rows: PendingRow[] = await knexOf(container)(PENDING_REMOVAL_TABLE).select("id", "kind", "subject_id", "product_id").whereNull("deleted_at")
  if (!rows.length) return 0
  return writePageInBulk(container, async (page) => {
    const sizes = rows.filter((r) => r.kind === "size")
    const products = rows.filter((r) => r.kind === "product").map((r) => r.subject_id)
    const claimed = await claimedByMap(page.trx, [...new Set(rows.map((r) => r.product_id))])
    const ofProducts: { id: string }[] = products.length
      ? await page.trx("product_variant").select("id").whereIn("product_id", products.filter((id) => !claimed.products.has(id))).whereNull("deleted_at")
      : []
    const ids = [...sizes.map((r) => r.subject_id).filter((id) => !claimed.variants.has(id)), ...ofProducts.map((v) => v.id)]
    return (await page.takeOffSale(ids)).length
  })
}
