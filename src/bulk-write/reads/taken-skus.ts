// SKUs a live variant or inventory item of the shop already holds.
import { sqlOf, type Connection } from "../connection"

/** Which of `skus` a live variant or a live inventory item has. */
export async function takenSkus(connection: Connection, skus: string[]): Promise<Set<string>> {
  if (!skus.length) return new Set()
  const { rows } = await sqlOf(connection).raw(
    `select sku from product_variant where sku = any(?) and deleted_at is null
     union select sku from inventory_item where sku = any(?) and deleted_at is null`,
    [skus, skus]
  )
  return new Set((rows as { sku: string }[]).map((r) => r.sku))
}
