// A product's prices as the sandbox serves them, from the catalog spec alone (shop-truth's
// expectedOf), for checking the change log's before/after prices against the catalog.
import Decimal from "decimal.js"
import { expectedOf, type TruthCard } from "./shop-truth"

/** The selling price a change-log row names: the lowest over the card's sizes, "1287.50"; null when unpriced. */
export function servedSellingPrice(card: TruthCard): string | null {
  let low: Decimal | null = null
  for (const v of expectedOf(card).variants) {
    const text = (v.sale[0] ?? v.base[0])?.replace(/^uah:/, "")
    if (text === undefined) continue
    const d = new Decimal(text)
    if (low === null || d.lessThan(low)) low = d
  }
  return low === null ? null : low.toFixed(2)
}

/** Every size's selling and crossed-out price in one text: it differs exactly when any served price moved. */
export function servedPricesKey(card: TruthCard): string {
  return JSON.stringify(expectedOf(card).variants.map((v) => [v.size, v.base, v.sale]))
}
