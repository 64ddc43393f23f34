// Variant SKUs read from Medusa's product_variant table.
import { sqlOf, type Connection } from "../connection"

/**
 * The shop's live variants (not soft-deleted) by id, or holding one of some SKUs: one SQL
 * statement each, the rows the product module's listProductVariants returns for these filters,
 * without its ORM work per row (this runs for every written product of every page).
 */
export interface ShopVariantSkus {
  byIds(ids: string[]): Promise<{ id: string; sku: string | null }[]>
  bySkus(skus: string[]): Promise<{ sku: string | null; product_id: string | null }[]>
}

export function shopVariantSkus(connection: Connection): ShopVariantSkus {
  const db = sqlOf(connection)
  return {
    async byIds(ids) {
      if (!ids.length) return []
      const { rows } = await db.raw("select id, sku from product_variant where id = any(?::text[]) and deleted_at is null", [ids])
      return rows
    },
    async bySkus(skus) {
      if (!skus.length) return []
      const { rows } = await db.raw("select sku, product_id from product_variant where sku = any(?::text[]) and deleted_at is null", [skus])
      return rows
    },
  }
}
