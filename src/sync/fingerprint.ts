// Fingerprints of what was written, kept in the product map: an unchanged card costs
// no write, and a card whose only change is stock touches inventory levels only.
import { createHash } from "node:crypto"
import type { ProductInput, StockInput } from "./product-input"

/** Bump when the mapping changes, so every product is rewritten once with the new mapping. */
export const MAPPING_VERSION = 1

/** JSON with object keys sorted, so equal inputs hash equally whatever their key order. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null)
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(record[k])}`).join(",")}}`
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32)
}

/** Everything written to Medusa except stock levels (details included: translations, categories, brand). */
export function fingerprint(input: ProductInput): string {
  return sha256(stableJson({ v: MAPPING_VERSION, ...input }))
}

export function stockFingerprint(stock: StockInput): string {
  return sha256(stableJson(stock))
}
