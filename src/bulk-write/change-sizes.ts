// A product's sizes changed, as the plugin's update workflow writes it (checked against
// Medusa 2.21): lost sizes' variants removed as deleteProductVariantsWorkflow removes them, then
// the size option pruned to the wanted values (the product's value joins hard-deleted, the
// values soft-deleted: updateProductOptionValuesOnProduct remove + softDeleteProductOptionValues),
// new sizes' values joining the option and the product (updateProductOptionValuesOnProduct add,
// which also deletes the option's soft-deleted values for good),
// their variants with price sets, inventory items, levels and links (createProductVariants,
// createPriceSets, createInventoryItems with no description, createInventoryLevels, link.create),
// and the kept variants' title, SKU, rank and metadata (merged) as upsertProductVariants writes them.
// Prices and stock levels of kept sizes, and product fields, are the page's other calls.
import { mergeMetadata } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import { sqlOf, type Connection } from "./connection"
import { emptyProductRows, insertProductRows, planVariantRows } from "./create-products"
import { ID_PREFIX, newId } from "./ids"
import { removeVariants, softDelete, type RemovedVariants } from "./remove-products"
import { recordPendingRemovals, reservedVariantIds, takeOffSale, valuesInUse } from "./open-orders"
import { journal } from "./row-journal"
import { json } from "./sql"
import { variantFieldsChanged } from "../sync/kept-variant-changes"
import type { BulkPlacement, CreatedBulkProduct, SizeChange } from "./types"

export type SizeOption = { productOptionId: string; optionId: string; isExclusive: boolean; values: { id: string; value: string; joined: boolean }[] }

/**
 * Each product's option of the given title, where it has one: its product join, whether it is
 * the product's own, the option's live values and which of them the product joins (the product
 * module's own read lists only those: filterOptionValues). The product's option joins and then each option are
 * looked up by their own indexes behind `offset 0`: joined plainly, a planner without statistics
 * matched the title against every option of that title (each product has its own "Розмір") and
 * joined the products after, a cost that grows with the shop.
 * A read only: the size option translations use it too, in place of a product module read with
 * two relations.
 */
export async function optionsTitled(connection: Connection, wanted: { productId: string; optionTitle: string }[]): Promise<Map<string, SizeOption>> {
  const out = new Map<string, SizeOption>()
  if (!wanted.length) return out
  const { rows } = await sqlOf(connection).raw(
    `select c.product_id, ppo.id as ppo_id, o.id as option_id, o.is_exclusive,
        coalesce((select json_agg(json_build_object('id', ov.id, 'value', ov.value, 'joined',
            exists (select 1 from product_product_option_value j where j.product_product_option_id = ppo.id and j.product_option_value_id = ov.id and j.deleted_at is null)))
           from product_option_value ov where ov.option_id = o.id and ov.deleted_at is null), '[]'::json) as values
       from unnest(?::text[], ?::text[]) as c(product_id, title)
       cross join lateral (select id, product_option_id from product_product_option ppo where ppo.product_id = c.product_id and ppo.deleted_at is null offset 0) ppo
       cross join lateral (select id, is_exclusive, title from product_option o where o.id = ppo.product_option_id and o.deleted_at is null offset 0) o
      where o.title = c.title`,
    [wanted.map((c) => c.productId), wanted.map((c) => c.optionTitle)]
  )
  for (const r of rows as { product_id: string; ppo_id: string; option_id: string; is_exclusive: boolean; values: SizeOption["values"] }[]) {
    out.set(r.product_id, { productOptionId: r.ppo_id, optionId: r.option_id, isExclusive: r.is_exclusive, values: r.values })
  }
  return out
}

/** Each changed product's size option; a product without one is an error (the page rolls back). */
export async function sizeOptions(trx: Knex.Transaction, changes: SizeChange[]): Promise<Map<string, SizeOption>> {
  const out = await optionsTitled(trx, changes)
  for (const c of changes) if (!out.has(c.productId)) throw new Error(`product ${c.productId} has no "${c.optionTitle}" option`)
  return out
}

/**
 * The prune step: values the product no longer uses leave its join (deleted) and, on its own
 * option, the option (soft-deleted). A value a live variant still uses (a size kept for an open
 * order) stays: Medusa refuses to remove it.
 */
async function pruneValues(trx: Knex.Transaction, changes: SizeChange[], options: Map<string, SizeOption>, inUse: Set<string>): Promise<void> {
  const joins: [string, string][] = []
  const ownValueIds: string[] = []
  for (const c of changes) {
    const option = options.get(c.productId)!
    const keep = new Set(c.values)
    const stays = (v: SizeOption["values"][number]) => keep.has(v.value) || inUse.has(v.id)
    const stale = option.values.filter((v) => !stays(v))
    joins.push(...stale.map((v) => [option.productOptionId, v.id] as [string, string]))
    if (option.isExclusive) ownValueIds.push(...stale.map((v) => v.id))
    for (const v of stale) v.joined = false
    if (option.isExclusive) option.values = option.values.filter(stays)
  }
  if (joins.length) {
    const { rows } = await trx.raw(
      `delete from product_product_option_value j using (values ${joins.map(() => "(?, ?)").join(", ")}) as s(ppo_id, value_id)
        where j.product_product_option_id = s.ppo_id and j.product_option_value_id = s.value_id returning j.id`,
      joins.flat()
    )
    journal(
      trx,
      "product_product_option_value",
      "deleted",
      rows.map((r: { id: string }) => r.id)
    )
  }
  await softDelete(trx, "product_option_value", "id", ownValueIds)
}

/**
 * A new value joins an option through the module's option update, which replaces the option's
 * values with its live ones plus the new: the rows not among them, i.e. the soft-deleted values
 * of sizes that left, are deleted for good, and with them (foreign keys, on delete cascade) the
 * removed variants' product_variant_option rows.
 */
async function dropDeletedValues(trx: Knex.Transaction, optionIds: string[]): Promise<void> {
  if (optionIds.length) await trx("product_option_value").whereIn("option_id", optionIds).whereNotNull("deleted_at").del()
}

/** upsertProductVariants of the kept sizes whose values differ: title, SKU, rank and metadata merged into the stored one. */
async function updateKeptVariants(trx: Knex.Transaction, changes: SizeChange[]): Promise<string[]> {
  const planned = changes.flatMap((c) => c.kept)
  if (!planned.length) return []
  const storedRows: { id: string; title: string | null; sku: string | null; variant_rank: number | null; metadata: Record<string, unknown> | null }[] =
    await trx("product_variant")
      .select("id", "title", "sku", "variant_rank", "metadata")
      .whereIn(
        "id",
        planned.map((k) => k.variantId)
      )
  const byId = new Map(storedRows.map((r) => [r.id, r]))
  const stored = new Map(storedRows.map((r) => [r.id, r.metadata]))
  // Only the variants whose values differ are written (product-variant.updated names exactly them).
  const kept = planned.filter((k) => variantFieldsChanged(byId.get(k.variantId), k))
  if (!kept.length) return []
  const { rows } = await trx.raw(
    `update product_variant as p set title = v.title, sku = v.sku, variant_rank = v.rank, metadata = v.metadata, updated_at = now()
       from (values ${kept.map(() => "(?, ?, ?, ?::integer, ?::jsonb)").join(", ")}) as v(id, title, sku, rank, metadata)
      where p.id = v.id and p.deleted_at is null returning p.id`,
    kept.flatMap((k) => [k.variantId, k.title, k.sku, k.rank, json(mergeMetadata(stored.get(k.variantId) ?? {}, k.metadata))])
  )
  const ids = rows.map((r: { id: string }) => r.id)
  journal(trx, "product_variant", "updated", ids)
  return ids
}

export interface ChangedSizes {
  removed: RemovedVariants
  /** Lost sizes kept for an open order (off sale, pending removal), and their levels taken down to what is reserved. */
  keptForOrders: { variantIds: string[]; updatedLevelIds: string[] }
  /** Per change, its added sizes' new rows, in the order given. */
  added: CreatedBulkProduct["variants"][]
  /** Kept variants whose title, SKU, rank or metadata were written. */
  updatedVariantIds: string[]
}

export async function changeSizes(trx: Knex.Transaction, changes: SizeChange[], placement: BulkPlacement): Promise<ChangedSizes> {
  if (!changes.length)
    return {
      removed: { variantIds: [], inventoryItemIds: [], cascade: [] },
      keptForOrders: { variantIds: [], updatedLevelIds: [] },
      added: [],
      updatedVariantIds: [],
    }
  const lost = changes.flatMap((c) => c.removedVariantIds.map((variantId) => ({ variantId, productId: c.productId })))
  const reserved = await reservedVariantIds(
    trx,
    lost.map((l) => l.variantId)
  )
  const removed = await removeVariants(
    trx,
    lost.filter((l) => !reserved.has(l.variantId)).map((l) => l.variantId)
  )
  const held = lost.filter((l) => reserved.has(l.variantId))
  const { updatedLevelIds } = await takeOffSale(
    trx,
    held.map((h) => h.variantId)
  )
  await recordPendingRemovals(
    trx,
    held.map((h) => ({ kind: "size", subjectId: h.variantId, productId: h.productId })),
    null
  )
  const options = await sizeOptions(trx, changes)
  await pruneValues(trx, changes, options, held.length ? await valuesInUse(trx, [...new Set(held.map((h) => h.productId))]) : new Set())
  const rows = emptyProductRows()
  const grown = new Set<string>()
  const added = changes.map((c) => {
    const option = options.get(c.productId)!
    const valueIds = new Map<string, string>()
    for (const v of c.added) {
      let value = option.values.find((x) => x.value === v.optionValue)
      if (!value) {
        value = { id: newId(ID_PREFIX.optionValue), value: v.optionValue, joined: false }
        rows.product_option_value.push({ id: value.id, value: v.optionValue, option_id: option.optionId, metadata: null, rank: null })
        option.values.push(value)
        grown.add(option.optionId)
      }
      if (!value.joined) {
        rows.product_product_option_value.push({
          id: newId(ID_PREFIX.productOptionValue),
          product_product_option_id: option.productOptionId,
          product_option_value_id: value.id,
        })
        value.joined = true
      }
      valueIds.set(v.optionValue, value.id)
    }
    return c.added.map((v) =>
      planVariantRows(
        rows,
        c.productId,
        { ...v, options: { [c.optionTitle]: v.optionValue }, inventoryDescription: null },
        v.rank,
        (_, value) => valueIds.get(value),
        placement
      )
    )
  })
  await dropDeletedValues(trx, [...grown])
  await insertProductRows(trx, rows)
  // The option update that adds a value flushes the option and its values already there.
  journal(trx, "product_option", "updated", grown)
  const newValues = new Set(rows.product_option_value.map((r) => r.id as string))
  for (const option of options.values()) {
    if (grown.has(option.optionId))
      journal(
        trx,
        "product_option_value",
        "updated",
        option.values.filter((v) => !newValues.has(v.id)).map((v) => v.id)
      )
  }
  const updatedVariantIds = await updateKeptVariants(trx, changes)
  return { removed, keptForOrders: { variantIds: held.map((h) => h.variantId), updatedLevelIds }, added, updatedVariantIds }
}
