// Kept variants' fields and base prices as the shop holds them, for the check of which kept
// variants a write would change (src/sync/kept-variant-changes.ts).
import { CURRENCY_CODE } from "../../sync/catalog-product"
import type { StoredVariant } from "../../sync/kept-variant-changes"
import { transactionOn, type Connection } from "../connection"
import { basePricesOf } from "../update-prices"

/** The variants' fields and base prices as the shop holds them (live variants only). */
export async function storedVariants(connection: Connection, variantIds: string[]): Promise<StoredVariant[]> {
  if (!variantIds.length) return []
  return transactionOn(connection, async (trx) => {
    const rows: Omit<StoredVariant, "hasPriceSet" | "amount">[] = await trx("product_variant")
      .select("id", "title", "sku", "variant_rank", "metadata")
      .whereIn("id", variantIds)
      .whereNull("deleted_at")
    const prices = new Map((await basePricesOf(trx, variantIds, CURRENCY_CODE)).map((p) => [p.variant_id, p]))
    return rows.map((r) => ({ ...r, hasPriceSet: prices.has(r.id), amount: prices.get(r.id)?.amount ?? null }))
  })
}
