// Stock-only fast path: one UPDATE for the page's changed levels at the location (the columns
// updateInventoryLevels writes: stocked_quantity, raw_stocked_quantity, updated_at), one INSERT
// for items that have no level there yet (as batchInventoryItemLevelsWorkflow creates them).
// Available quantity is not stored: Medusa derives it (stocked - reserved) when read.
import type { Knex } from "knex"
import { rawValue } from "./amounts"
import { ID_PREFIX, newId } from "./ids"
import { journal } from "./row-journal"
import { insertRows, json } from "./sql"
import type { StockChange } from "./types"

export async function setStockLevels(
  trx: Knex.Transaction,
  changes: StockChange[],
  locationId: string
): Promise<{ updatedLevelIds: string[]; createdLevelIds: string[] }> {
  if (!changes.length) return { updatedLevelIds: [], createdLevelIds: [] }
  const wanted = new Map(changes.map((c) => [c.inventoryItemId, rawValue(c.quantity)]))
  // Each item's levels looked up by item, the location checked after: with the location in the
  // lookup, a planner without table statistics takes the location's index, which holds every
  // level of the shop, so a page's lookup grows with the shop instead of with the page.
  const { rows: existing } = (await trx.raw(
    `select l.id, l.inventory_item_id, l.stocked_quantity from unnest(?::text[]) as x(id)
       cross join lateral (select id, inventory_item_id, stocked_quantity, location_id from inventory_level l
         where l.inventory_item_id = x.id and l.deleted_at is null offset 0) l
      where l.location_id = ?`,
    [[...wanted.keys()], locationId]
  )) as { rows: { id: string; inventory_item_id: string; stocked_quantity: string }[] }
  const have = new Set(existing.map((l) => l.inventory_item_id))
  const changed = existing.filter((l) => rawValue(l.stocked_quantity).value !== wanted.get(l.inventory_item_id)!.value)
  if (changed.length) {
    const values = changed.map(() => "(?, ?::numeric, ?::jsonb)").join(", ")
    const bindings = changed.flatMap((l) => {
      const raw = wanted.get(l.inventory_item_id)!
      return [l.id, raw.value, JSON.stringify(raw)]
    })
    await trx.raw(
      `update inventory_level as l set stocked_quantity = v.q, raw_stocked_quantity = v.raw, updated_at = now()
       from (values ${values}) as v(id, q, raw) where l.id = v.id`,
      bindings
    )
    journal(
      trx,
      "inventory_level",
      "updated",
      changed.map((l) => l.id)
    )
  }
  // An item that is gone (soft-deleted) gets no level: Medusa would refuse it too.
  const missing = [...wanted.keys()].filter((id) => !have.has(id))
  const liveItems: string[] = missing.length
    ? (await trx("inventory_item").select("id").whereIn("id", missing).whereNull("deleted_at")).map((r: { id: string }) => r.id)
    : []
  const zero = rawValue("0")
  const created = liveItems.map((itemId) => {
    const raw = wanted.get(itemId)!
    return {
      id: newId(ID_PREFIX.inventoryLevel),
      inventory_item_id: itemId,
      location_id: locationId,
      stocked_quantity: raw.value,
      reserved_quantity: "0",
      incoming_quantity: "0",
      raw_stocked_quantity: json(raw),
      raw_reserved_quantity: json(zero),
      raw_incoming_quantity: json(zero),
    }
  })
  await insertRows(trx, "inventory_level", created)
  return { updatedLevelIds: changed.map((l) => l.id), createdLevelIds: created.map((r) => r.id) }
}
