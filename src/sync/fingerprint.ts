// Fingerprints of what was written, kept in the product map: an unchanged card costs
// no write, and a card whose only change is stock touches inventory levels only.
import { createHash } from "node:crypto"
import { productMetadata, type CatalogProduct, type StockInput } from "./catalog-product"

/** Bump when the mapping changes, so every product is rewritten once with the new mapping. */
export const MAPPING_VERSION = 2

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

/** Hashes of the three parts an update can touch, so an update writes only what changed. */
export interface FingerprintParts {
  /** Product fields, images, categories, sales channel, translations and catalog references. */
  fields: string
  /** Variant set: sizes, titles, SKUs, option values, metadata. */
  variants: string
  /** Variant prices: base and sale amounts. */
  prices: string
}

/** Keys of product metadata that the hashed `details` never held (added after it, in the mapping). */
const NOT_IN_DETAILS = new Set(["catalog_sync", "size_labels"])

/**
 * The product fields as mapping version 2 hashed them: the product, plus a `details` copy of
 * its descriptive fields (the shape the mapping once passed along). Stored fingerprints are
 * hashes of this layout, so it stays as it was: any change rewrites every product of every shop
 * once (bump MAPPING_VERSION for that). src/sync/__tests__/fingerprint-golden.spec.ts holds it.
 */
function hashedFields(product: CatalogProduct): Record<string, unknown> {
  const metadata = productMetadata(product)
  const details = {
    title: product.title,
    description: product.description,
    handle: product.handle,
    weight: product.weight,
    length: product.length,
    width: product.width,
    height: product.height,
    material: product.material,
    origin_country: product.origin_country,
    metadata: Object.fromEntries(Object.entries(metadata).filter(([key]) => !NOT_IN_DETAILS.has(key))),
    translations: product.translations,
    categoryCatalogId: product.categoryCatalogId,
    brandCatalogId: product.brand?.id ?? null,
    brandModelCatalogId: product.brandModel?.id ?? null,
  }
  return {
    v: MAPPING_VERSION,
    catalogId: product.catalogId,
    external_id: product.external_id,
    title: product.title,
    handle: product.handle,
    description: product.description,
    subtitle: product.subtitle,
    status: product.status,
    weight: product.weight,
    length: product.length,
    width: product.width,
    height: product.height,
    material: product.material,
    origin_country: product.origin_country,
    images: product.images,
    optionTitle: product.optionTitle,
    thumbnail: product.thumbnail,
    metadata,
    categoryIds: product.categoryIds,
    salesChannelId: product.salesChannelId,
    details,
  }
}

export function fingerprintParts(product: CatalogProduct): FingerprintParts {
  const { variants } = product
  return {
    fields: sha256(stableJson(hashedFields(product))),
    variants: sha256(stableJson(variants.map(({ amount: _amount, saleAmount: _sale, priced: _priced, ...v }) => v))),
    // Both amounts: a selling price below an unchanged old_price moves only the sale amount.
    prices: sha256(stableJson(variants.map((v) => [v.sizeKey, v.amount, v.saleAmount]))),
  }
}

/**
 * Everything written to Medusa except stock levels, as "v<version>:<fields>:<variants>:<prices>"
 * (one text column in the product map; its parts tell an update what to rewrite).
 */
export function fingerprint(product: CatalogProduct): string {
  const parts = fingerprintParts(product)
  return `v${MAPPING_VERSION}:${parts.fields}:${parts.variants}:${parts.prices}`
}

export type ChangedParts = Record<keyof FingerprintParts, boolean>

/** Which parts differ between a stored fingerprint and a new one; an unreadable old one changes all. */
export function changedParts(before: string | null, after: string): ChangedParts {
  const a = before?.split(":") ?? []
  const b = after.split(":")
  if (a.length !== 4 || a[0] !== b[0]) return { fields: true, variants: true, prices: true }
  return { fields: a[1] !== b[1], variants: a[2] !== b[2], prices: a[3] !== b[3] }
}

/**
 * Stock per size and the location its levels are written to: after the stock location setting
 * changes, every product's levels are written at the new location (not only those whose stock moved).
 */
export function stockFingerprint(stock: StockInput, stockLocationId: string | null): string {
  return sha256(stableJson({ location: stockLocationId, stock }))
}
