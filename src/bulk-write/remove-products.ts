// Removal in bulk: the soft deletes deleteProductsWorkflow makes, as UPDATE ... SET deleted_at.
// Measured against Medusa 2.21: products, their variants and images; product-own ("exclusive")
// options with their values and product_product_option(_value) joins; every module link of the
// products and variants (sales channel, shipping profile, price sets, inventory items, and any
// other link defined on product/variant, e.g. a plugin's brand link); the price sets the variant
// links cascade to, with their prices and price rules; the inventory items used only by these
// variants, with their levels. product_variant_option and product_category_product keep their
// rows, as Medusa leaves them. The other side of any other link declared with deleteCascade is
// soft-deleted after the commit through its module (page-writer.ts), as Medusa's link removal does.
import type { Knex } from "knex"
import { cascadeLinks, productLinkTables } from "./link-tables"
import { journal } from "./row-journal"

/** Records of another module to soft-delete after the commit, as Medusa's link removal cascades (deleteCascade). */
export interface CascadeTarget {
  serviceName: string
  primaryKey: string
  methodSuffix: string | undefined
  ids: string[]
}

/** The other sides of the live cascading links of these products or variants (read before the links go). */
async function cascadeTargets(trx: Knex.Transaction, column: "product_id" | "variant_id", ids: string[]): Promise<CascadeTarget[]> {
  const out: CascadeTarget[] = []
  if (!ids.length) return out
  for (const link of cascadeLinks()) {
    if (link.column !== column) continue
    const rows: Record<string, string>[] = await trx(link.table).select(link.otherColumn).whereIn(column, ids).whereNull("deleted_at")
    const other = [...new Set(rows.map((r) => r[link.otherColumn]))]
    if (other.length) out.push({ serviceName: link.serviceName, primaryKey: link.primaryKey, methodSuffix: link.methodSuffix, ids: other })
  }
  return out
}

/**
 * `silent`: rows Medusa's workflow deletes by cascade in SQL (no entity flushed, so the module
 * emits no internal event for them), e.g. a removed product's options and their joins.
 */
export async function softDelete(trx: Knex.Transaction, table: string, column: string, ids: string[], silent = false): Promise<string[]> {
  if (!ids.length) return []
  const rows = await trx(table).whereIn(column, ids).whereNull("deleted_at").update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now() }, ["id"])
  const deleted = rows.map((r: { id: string }) => r.id)
  if (!silent) journal(trx, table, "deleted", deleted)
  return deleted
}

async function itemsOnlyTheseVariantsUse(trx: Knex.Transaction, managed: string[], leaving: Set<string>): Promise<string[]> {
  if (!managed.length) return []
  const candidates: string[] = [
    ...new Set(
      (await trx("product_variant_inventory_item").select("inventory_item_id").whereIn("variant_id", managed).whereNull("deleted_at")).map(
        (r: { inventory_item_id: string }) => r.inventory_item_id
      )
    ),
  ]
  if (!candidates.length) return []
  const users: { inventory_item_id: string; variant_id: string }[] = await trx("product_variant_inventory_item as l")
    .join("product_variant as v", "v.id", "l.variant_id")
    .select("l.inventory_item_id", "l.variant_id")
    .whereIn("l.inventory_item_id", candidates)
    .whereNull("l.deleted_at")
    .whereNull("v.deleted_at")
  const shared = new Set(users.filter((u) => !leaving.has(u.variant_id)).map((u) => u.inventory_item_id))
  const live = new Set((await trx("inventory_item").select("id").whereIn("id", candidates).whereNull("deleted_at")).map((r: { id: string }) => r.id))
  return candidates.filter((id) => live.has(id) && !shared.has(id))
}

export interface RemovedProducts {
  productIds: string[]
  variantIds: string[]
  inventoryItemIds: string[]
  cascade: CascadeTarget[]
  /** The products' own (exclusive) options removed with them. */
  optionIds: string[]
}

export interface RemovedVariants {
  variantIds: string[]
  inventoryItemIds: string[]
  cascade: CascadeTarget[]
}

/**
 * deleteProductVariantsWorkflow's soft deletes for these variants (live ones): every module link
 * of the variants, the price sets they cascade to with their prices and price rules, the
 * inventory items only these variants use (deleteInventoryItemWorkflow: items, levels, their
 * links), then the variants. product_variant_option keeps its rows, as Medusa leaves them.
 */
export async function removeVariants(trx: Knex.Transaction, ids: string[]): Promise<RemovedVariants> {
  if (!ids.length) return { variantIds: [], inventoryItemIds: [], cascade: [] }
  const variants: { id: string; manage_inventory: boolean }[] = await trx("product_variant")
    .select("id", "manage_inventory")
    .whereIn("id", ids)
    .whereNull("deleted_at")
  const variantIds = variants.map((v) => v.id)
  const managed = variants.filter((v) => v.manage_inventory).map((v) => v.id)

  // An inventory item goes only when every live variant linked to it goes (Medusa's rule).
  const inventoryItemIds = await itemsOnlyTheseVariantsUse(trx, managed, new Set(variantIds))

  const priceSetIds: string[] = variantIds.length
    ? (await trx("product_variant_price_set").select("price_set_id").whereIn("variant_id", variantIds).whereNull("deleted_at")).map(
        (r: { price_set_id: string }) => r.price_set_id
      )
    : []

  const cascade = await cascadeTargets(trx, "variant_id", variantIds)
  await softDelete(trx, "inventory_level", "inventory_item_id", inventoryItemIds)
  await softDelete(trx, "inventory_item", "id", inventoryItemIds)
  // deleteInventoryItemWorkflow also removes the items' links (from the inventory side).
  await softDelete(trx, "product_variant_inventory_item", "inventory_item_id", inventoryItemIds)
  for (const { table, column } of productLinkTables()) {
    if (column === "variant_id") await softDelete(trx, table, column, variantIds)
  }
  const priceIds: string[] = priceSetIds.length
    ? (await trx("price").select("id").whereIn("price_set_id", priceSetIds).whereNull("deleted_at")).map((r: { id: string }) => r.id)
    : []
  await softDelete(trx, "price_rule", "price_id", priceIds)
  await softDelete(trx, "price", "id", priceIds)
  // The pricing module's soft delete of a price set cascades to every price of it, soft-deleted
  // ones too (a crossed-out price taken off before): their deleted_at moves, an update.
  if (priceSetIds.length) {
    const again = await trx("price")
      .whereIn("price_set_id", priceSetIds)
      .whereNotNull("deleted_at")
      .whereNotIn("id", priceIds)
      .update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now() }, ["id"])
    journal(
      trx,
      "price",
      "updated",
      again.map((r: { id: string }) => r.id)
    )
  }
  await softDelete(trx, "price_set", "id", priceSetIds)
  await softDelete(trx, "product_variant", "id", variantIds)
  return { variantIds, inventoryItemIds, cascade }
}

export async function removeProducts(trx: Knex.Transaction, productIds: string[]): Promise<RemovedProducts> {
  const products: string[] = (await trx("product").select("id").whereIn("id", productIds).whereNull("deleted_at")).map((r: { id: string }) => r.id)
  if (!products.length) return { productIds: [], variantIds: [], inventoryItemIds: [], cascade: [], optionIds: [] }
  const variantIds: string[] = (await trx("product_variant").select("id").whereIn("product_id", products).whereNull("deleted_at")).map(
    (r: { id: string }) => r.id
  )
  const variantsRemoved = await removeVariants(trx, variantIds)
  const { inventoryItemIds } = variantsRemoved
  const cascade = [...variantsRemoved.cascade, ...(await cascadeTargets(trx, "product_id", products))]
  for (const { table, column } of productLinkTables()) {
    if (column === "product_id") await softDelete(trx, table, column, products)
  }
  await softDelete(trx, "image", "product_id", products)
  const exclusiveOptionIds: string[] = (
    await trx("product_product_option as ppo")
      .join("product_option as o", "o.id", "ppo.product_option_id")
      .distinct("o.id")
      .whereIn("ppo.product_id", products)
      .andWhere("o.is_exclusive", true)
      .whereNull("o.deleted_at")
  ).map((r: { id: string }) => r.id)
  const productOptionIds: string[] = (await trx("product_product_option").select("id").whereIn("product_id", products).whereNull("deleted_at")).map(
    (r: { id: string }) => r.id
  )
  // The workflow removes options through the product's cascade and its option step: only the
  // public product-option.deleted is emitted for them.
  await softDelete(trx, "product_product_option_value", "product_product_option_id", productOptionIds, true)
  await softDelete(trx, "product_product_option", "id", productOptionIds, true)
  await softDelete(trx, "product_option_value", "option_id", exclusiveOptionIds, true)
  const optionIds = await softDelete(trx, "product_option", "id", exclusiveOptionIds, true)
  await softDelete(trx, "product", "id", products)
  return { productIds: products, variantIds, inventoryItemIds, cascade, optionIds }
}
