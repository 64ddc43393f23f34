// A variant's base price as Medusa's product and variant workflows take it.
import { CURRENCY_CODE } from "../../sync/catalog-product"

/** The variant's prices for a catalog amount (major units, exact decimal string); null = no price. */
export function pricesOf(amount: string | null) {
  return amount === null ? [] : [{ amount, currency_code: CURRENCY_CODE }]
}
