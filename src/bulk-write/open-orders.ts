// Stock an open order reserved is never deleted (Medusa's delete workflows refuse it: "Cannot
// remove … since they have reservations"). A size or product the catalog removes while such
// stock exists is kept for the order (variant, inventory item, levels) and taken off sale the
// way Medusa's cart and store API decide availability: stocked quantity down to what is
// reserved (available = stocked - reserved = 0), no backorder. It is recorded as a pending
// removal and removed by a later run once nothing is reserved (src/sync-run/pending-removals.ts).
import type { Knex } from "knex"
import { sqlOf, type Connection } from "./connection"
import { journal } from "./row-journal"
import { newId } from "./ids"

export const PENDING_REMOVAL_TABLE = "mcs_pending_removal"
export const KEPT_FOR_OPEN_ORDER = "kept for an open order"

/**
 * The variants, of those given, whose live inventory items have stock reserved: a live
 * reservation or a level with reserved_quantity > 0 (either one is what the delete steps refuse on).
 */
export async function reservedVariantIds(db: Knex | Knex.Transaction, variantIds: string[]): Promise<Set<string>> {
  if (!variantIds.length) return new Set()
  const { rows } = await db.raw(
    `select distinct l.variant_id from product_variant_inventory_item l
       join inventory_item i on i.id = l.inventory_item_id and i.deleted_at is null
      where l.variant_id = any(?) and l.deleted_at is null
        and (exists (select 1 from inventory_level lv where lv.inventory_item_id = i.id and lv.deleted_at is null and lv.reserved_quantity > 0)
          or exists (select 1 from reservation_item r where r.inventory_item_id = i.id and r.deleted_at is null))`,
    [variantIds]
  )
  return new Set((rows as { variant_id: string }[]).map((r) => r.variant_id))
}

/**
 * Takes the variants off sale and keeps them for their orders: every live level of their items
 * stocked at no more than it reserves, backorders off. Idempotent. Returns the levels changed
 * (inventory-level.updated, as updateInventoryLevels emits).
 */
export async function takeOffSale(trx: Knex.Transaction, variantIds: string[]): Promise<{ updatedLevelIds: string[] }> {
  if (!variantIds.length) return { updatedLevelIds: [] }
  const { rows } = await trx.raw(
    `update inventory_level lv
        set stocked_quantity = lv.reserved_quantity,
            raw_stocked_quantity = jsonb_build_object('value', lv.reserved_quantity::text, 'precision', 20),
            updated_at = now()
       from product_variant_inventory_item l
      where l.variant_id = any(?) and l.deleted_at is null and lv.inventory_item_id = l.inventory_item_id
        and lv.deleted_at is null and lv.stocked_quantity > lv.reserved_quantity
      returning lv.id`,
    [variantIds]
  )
  const updatedLevelIds = (rows as { id: string }[]).map((r) => r.id)
  journal(trx, "inventory_level", "updated", updatedLevelIds)
  const backorders: { id: string }[] = await trx("product_variant")
    .whereIn("id", variantIds)
    .where("allow_backorder", true)
    .update({ allow_backorder: false, updated_at: trx.fn.now() })
    .returning("id")
  journal(
    trx,
    "product_variant",
    "updated",
    backorders.map((r) => r.id)
  )
  return { updatedLevelIds }
}

export interface PendingRemoval {
  kind: "size" | "product"
  subjectId: string
  productId: string
}

/** Records pending removals (one live row per subject; a repeat keeps the first and names the latest run). */
export async function recordPendingRemovals(trx: Knex.Transaction, removals: PendingRemoval[], runId: string | null): Promise<void> {
  if (!removals.length) return
  const values = removals.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")
  await trx.raw(
    `insert into ${PENDING_REMOVAL_TABLE} (id, kind, subject_id, product_id, catalog_id, run_id, reason)
     select v.id, v.kind, v.subject_id, v.product_id, p.external_id, v.run_id, v.reason
       from (values ${values}) as v(id, kind, subject_id, product_id, run_id, reason)
       left join product p on p.id = v.product_id
     on conflict (subject_id) where deleted_at is null do update set run_id = coalesce(excluded.run_id, ${PENDING_REMOVAL_TABLE}.run_id), updated_at = now()`,
    removals.flatMap((r) => [pendingId(), r.kind, r.subjectId, r.productId, runId, KEPT_FOR_OPEN_ORDER])
  )
}

function pendingId(): string {
  return newId("cspendrm")
}

/** Option value ids that live variants of these products use (Medusa refuses to remove a used value). */
export async function valuesInUse(connection: Connection, productIds: string[]): Promise<Set<string>> {
  if (!productIds.length) return new Set()
  const { rows } = await sqlOf(connection).raw(
    `select distinct pvo.option_value_id from product_variant v
       join product_variant_option pvo on pvo.variant_id = v.id
      where v.product_id = any(?) and v.deleted_at is null`,
    [productIds]
  )
  return new Set((rows as { option_value_id: string }[]).map((r) => r.option_value_id))
}
