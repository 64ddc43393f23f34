// The workflows write path's other writes, each a diff against what the shop holds (so a replay
// writes nothing more), carried out by Medusa's own workflows: stock levels
// (batchInventoryItemLevelsWorkflow), removals (deleteProductsWorkflow), crossed-out sale prices
// (batchPriceListPricesWorkflow), translations (batchTranslationsWorkflow) and brand links
// (createLinksWorkflow / dismissLinksWorkflow).
import { checkWriteFence } from "../bulk-write/write-fence"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import {
  batchInventoryItemLevelsWorkflow,
  batchPriceListPricesWorkflow,
  batchTranslationsWorkflow,
  createLinksWorkflow,
  deleteProductsWorkflow,
  dismissLinksWorkflow,
} from "@medusajs/medusa/core-flows"
import type { StockChange } from "../bulk-write"
import { normalizedDecimal } from "../bulk-write/amounts"
import type { NewTranslation } from "../bulk-write/translations"
import { CATALOG_SYNC_MODULE } from "../modules/catalog_sync/module-name"

export async function setStockThroughCoreFlows(container: MedusaContainer, levels: StockChange[], stockLocationId: string): Promise<void> {
  if (!levels.length) return
  const existing = await container
    .resolve(Modules.INVENTORY)
    .listInventoryLevels(
      { inventory_item_id: [...new Set(levels.map((l) => l.inventoryItemId))], location_id: stockLocationId },
      { select: ["inventory_item_id", "stocked_quantity"], take: null }
    )
  const stocked = new Map(existing.map((l) => [l.inventory_item_id, Number(l.stocked_quantity)]))
  const create = [] as { inventory_item_id: string; location_id: string; stocked_quantity: number }[]
  const update = [] as typeof create
  for (const l of levels) {
    // A level already at its quantity is not written: no inventory-level.updated for it (as on the bulk path).
    if (stocked.get(l.inventoryItemId) === l.quantity) continue
    ;(stocked.has(l.inventoryItemId) ? update : create).push({
      inventory_item_id: l.inventoryItemId,
      location_id: stockLocationId,
      stocked_quantity: l.quantity,
    })
  }
  if (!create.length && !update.length) return
  await checkWriteFence(container)
  await batchInventoryItemLevelsWorkflow(container).run({ input: { create, update } as never })
}

export async function removeProductsThroughCoreFlows(container: MedusaContainer, productIds: string[]): Promise<void> {
  if (!productIds.length) return
  // Already deleted ones (a replayed page) are not found by the workflow's reads: only live ones.
  const live = await container.resolve(Modules.PRODUCT).listProducts({ id: productIds }, { select: ["id"], take: null })
  await checkWriteFence(container)
  if (live.length) await deleteProductsWorkflow(container).run({ input: { ids: live.map((p) => p.id) } })
}

/** The sale list's prices of these variants made exactly the wanted ones (null: none). */
export async function salePricesThroughCoreFlows(
  container: MedusaContainer,
  priceListId: string,
  wanted: { variantId: string; saleAmount: string | null }[],
  currencyCode: string
): Promise<{ created: number; updated: number; deleted: number }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({
    entity: "product_variant_price_set",
    fields: ["variant_id", "price_set_id"],
    filters: { variant_id: wanted.map((w) => w.variantId) },
  })
  const setOf = new Map((links as { variant_id: string; price_set_id: string }[]).map((l) => [l.variant_id, l.price_set_id]))
  const sets = [...new Set(setOf.values())]
  const current = sets.length
    ? ((await container.resolve(Modules.PRICING).listPrices({ price_set_id: sets, price_list_id: [priceListId] } as never, {
        select: ["id", "price_set_id", "amount", "currency_code"],
        take: null,
      })) as unknown as {
        id: string
        price_set_id: string
        amount: unknown
        currency_code: string
      }[])
    : []
  const bySet = new Map<string, typeof current>()
  for (const p of current) if (p.currency_code === currencyCode) bySet.set(p.price_set_id, [...(bySet.get(p.price_set_id) ?? []), p])
  const create: { variant_id: string; amount: string; currency_code: string }[] = []
  const update: { id: string; variant_id: string; amount: string; currency_code: string }[] = []
  const remove: string[] = []
  for (const w of wanted) {
    const set = setOf.get(w.variantId)
    if (!set) continue // a variant without a price set (deleted since): nothing to price
    const [keep, ...extra] = bySet.get(set) ?? []
    remove.push(...extra.map((p) => p.id))
    if (w.saleAmount === null) {
      if (keep) remove.push(keep.id)
    } else if (!keep) create.push({ variant_id: w.variantId, amount: w.saleAmount, currency_code: currencyCode })
    else if (normalizedDecimal(String(keep.amount)) !== normalizedDecimal(w.saleAmount))
      update.push({ id: keep.id, variant_id: w.variantId, amount: w.saleAmount, currency_code: currencyCode })
  }
  if (create.length || update.length || remove.length) {
    await checkWriteFence(container)
    await batchPriceListPricesWorkflow(container).run({ input: { data: { id: priceListId, create, update, delete: remove } } as never })
  }
  return { created: create.length, updated: update.length, deleted: remove.length }
}

export async function translationsThroughCoreFlows(
  container: MedusaContainer,
  batch: { create: NewTranslation[]; update: { id: string; translations: Record<string, string> }[]; delete: string[] }
): Promise<void> {
  await checkWriteFence(container)
  await batchTranslationsWorkflow(container).run({ input: batch as never })
}

/** Sets each product's single link to a record of the plugin's module (null: none). */
export async function linksThroughCoreFlows(
  container: MedusaContainer,
  kind: { entryPoint: string; key: string },
  wanted: Map<string, string | null>
): Promise<{ created: number; dismissed: number }> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: kind.entryPoint,
    fields: ["product_id", kind.key],
    filters: { product_id: [...wanted.keys()] },
  })
  const linked = new Map<string, string[]>()
  for (const row of data as Record<string, string>[]) linked.set(row.product_id, [...(linked.get(row.product_id) ?? []), row[kind.key]])
  const pair = (productId: string, id: string) => ({ [Modules.PRODUCT]: { product_id: productId }, [CATALOG_SYNC_MODULE]: { [kind.key]: id } })
  const create: ReturnType<typeof pair>[] = []
  const dismiss: ReturnType<typeof pair>[] = []
  for (const [productId, id] of wanted) {
    const have = linked.get(productId) ?? []
    for (const other of have) if (other !== id) dismiss.push(pair(productId, other))
    if (id && !have.includes(id)) create.push(pair(productId, id))
  }
  await checkWriteFence(container)
  if (dismiss.length) await dismissLinksWorkflow(container).run({ input: dismiss as never })
  if (create.length) await createLinksWorkflow(container).run({ input: create as never })
  return { created: create.length, dismissed: dismiss.length }
}
