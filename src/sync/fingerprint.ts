// Fingerprints of what was written, kept in the product map: an unchanged card costs
// no write, and a card whose only change is stock touches inventory levels only.
import * as crypto from "node:crypto"
import { productMetadata, type CatalogProduct, type StockInput } from "./catalog-product"
import { PRODUCT_COLUMN_LIST, type ProductColumn } from "./product-columns"

/** Bump when the mapping changes, so every product is rewritten once with the new mapping. */
export const MAPPING_VERSION = 2

/** Object keys as JSON text: a page repeats the same few dozen keys thousands of times. */
const QUOTED_KEYS = new Map<string, string>()
const QUOTED_KEYS_MAX = 10_000

function quotedKey(key: string): string {
  let quoted = QUOTED_KEYS.get(key)
  if (quoted === undefined) {
    quoted = JSON.stringify(key)
    if (QUOTED_KEYS.size < QUOTED_KEYS_MAX) QUOTED_KEYS.set(key, quoted)
  }
  return quoted
}

/**
 * The keys in the order `Array.prototype.sort()` gives strings (by UTF-16 code units), sorted in
 * place: an object here has a few dozen keys at most, and the built-in sort copies each array it
 * sorts (a tenth of what planning a page allocated).
 */
function sortedInPlace(keys: string[]): string[] {
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]
    let j = i - 1
    while (j >= 0 && keys[j] > key) {
      keys[j + 1] = keys[j]
      j--
    }
    keys[j + 1] = key
  }
  return keys
}

/**
 * JSON with object keys sorted, so equal inputs hash equally whatever their key order. Stored
 * fingerprints hash this text, so it must stay byte for byte what it always was: the first
 * version was `[${value.map(stableJson).join(",")}]` for arrays (a hole joins as nothing) and
 * the defined keys, sorted, for objects. This writes the same text in one pass (planning a page
 * is mostly this).
 */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null)
  // The value copied with its keys in order, then written by JSON.stringify: one string, where
  // writing it piece by piece made one per value and per comma (most of what planning a page
  // allocated). Values JSON.stringify would write otherwise are written piece by piece.
  const copy = sortedCopy(value)
  return copy === WRITTEN_OTHERWISE ? stableJsonInPieces(value) : JSON.stringify(copy)
}

const WRITTEN_OTHERWISE = Symbol("written otherwise")

/** A key V8 keeps in numeric order before the others, whatever the order it was set in. */
function isArrayIndex(key: string): boolean {
  const c = key.charCodeAt(0)
  return c >= 48 && c <= 57 && /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295
}

/**
 * A copy of the value that JSON.stringify writes as stableJson does: plain objects with the
 * defined keys set in sorted order, plain arrays. WRITTEN_OTHERWISE where the two would differ:
 * a hole, a function or symbol (written as nothing or "undefined"), a key kept in numeric order
 * or one that sets the prototype, a bigint.
 */
function sortedCopy(value: unknown): unknown {
  if (value === null) return null
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
    case "undefined":
      return value
    case "object":
      break
    default:
      return WRITTEN_OTHERWISE
  }
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length)
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return WRITTEN_OTHERWISE
      const v = sortedCopy(value[i])
      if (v === WRITTEN_OTHERWISE) return v
      out[i] = v
    }
    return out
  }
  const record = value as Record<string, unknown>
  const keys = sortedInPlace(Object.keys(record))
  const out: Record<string, unknown> = {}
  for (const key of keys) {
    const v = record[key]
    if (v === undefined) continue
    if (key === "__proto__" || isArrayIndex(key)) return WRITTEN_OTHERWISE
    const copied = sortedCopy(v)
    if (copied === WRITTEN_OTHERWISE) return copied
    out[key] = copied
  }
  return out
}

function stableJsonInPieces(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null)
  if (Array.isArray(value)) {
    let out = "["
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ","
      // `?? ""`: a function or symbol element joined as nothing.
      if (i in value) out += stableJsonInPieces(value[i]) ?? ""
    }
    return out + "]"
  }
  const record = value as Record<string, unknown>
  const keys = sortedInPlace(Object.keys(record))
  let out = "{"
  let first = true
  for (const key of keys) {
    const v = record[key]
    if (v === undefined) continue
    if (!first) out += ","
    first = false
    out += quotedKey(key) + ":" + stableJsonInPieces(v)
  }
  return out + "}"
}

// One-shot hashing where Node has it (20.12+): about twice as fast as createHash for short texts.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash

function sha256(text: string): string {
  const hex = oneShot ? oneShot("sha256", text, "hex") : crypto.createHash("sha256").update(text).digest("hex")
  return hex.slice(0, 32)
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
  const hashed: Record<string, unknown> = {
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
  const addedValues = addedColumnValues(product)
  if (addedValues) hashed.columns = addedValues
  return hashed
}

/** The columns the layout above holds; any other column of the description is hashed by addedColumnValues. */
const V2_COLUMNS: ReadonlySet<string> = new Set([
  "title",
  "handle",
  "description",
  "subtitle",
  "status",
  "external_id",
  "thumbnail",
  "weight",
  "length",
  "width",
  "height",
  "material",
  "origin_country",
])

const ADDED_COLUMNS: readonly ProductColumn[] = PRODUCT_COLUMN_LIST.filter((c) => !V2_COLUMNS.has(c.name))

/**
 * `{ name: value }` of the columns added to the description after mapping version 2 that have a
 * value (hashed as `columns`), else undefined: a product without a value for a new column keeps
 * its stored fingerprint (nothing to write), one with a value is rewritten once, no version bump.
 */
function addedColumnValues(product: CatalogProduct): Record<string, unknown> | undefined {
  let values: Record<string, unknown> | undefined
  const fields = product as unknown as Record<string, unknown>
  for (let i = 0; i < ADDED_COLUMNS.length; i++) {
    const name = ADDED_COLUMNS[i].name
    const value = fields[name]
    if (value === null || value === undefined) continue
    values ??= {}
    values[name] = value
  }
  return values
}

export function fingerprintParts(product: CatalogProduct): FingerprintParts {
  const { variants } = product
  return {
    fields: sha256(stableJson(hashedFields(product))),
    variants: sha256(stableJson(variants.map(({ amount: _amount, saleAmount: _sale, priced: _priced, ...v }) => v))),
    prices: pricesPart(variants),
  }
}

/** The prices part of a product's variants, in the product's size order. */
export function pricesPart(variants: readonly { sizeKey: string; amount: string | null; saleAmount: string | null }[]): string {
  // Both amounts: a selling price below an unchanged old_price moves only the sale amount.
  return sha256(stableJson(variants.map((v) => [v.sizeKey, v.amount, v.saleAmount])))
}

/** A stored fingerprint with another prices part (a reprice wrote the prices); null when it is not one this version reads. */
export function withPricesPart(stored: string | null, prices: string): string | null {
  const parts = stored?.split(":") ?? []
  if (parts.length !== 4 || parts[0] !== `v${MAPPING_VERSION}`) return null
  return [...parts.slice(0, 3), prices].join(":")
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

/** Every part written: a new product, one coming back, or one whose shop state is not as mapped. */
export const ALL_PARTS: Readonly<ChangedParts> = Object.freeze({ fields: true, variants: true, prices: true })

/** Which parts differ between a stored fingerprint and a new one; an unreadable old one changes all. */
export function changedParts(before: string | null, after: string): ChangedParts {
  const a = before?.split(":") ?? []
  const b = after.split(":")
  if (a.length !== 4 || a[0] !== b[0]) return ALL_PARTS
  return { fields: a[1] !== b[1], variants: a[2] !== b[2], prices: a[3] !== b[3] }
}

/**
 * Stock per size and the location its levels are written to: after the stock location setting
 * changes, every product's levels are written at the new location (not only those whose stock moved).
 */
export function stockFingerprint(stock: StockInput, stockLocationId: string | null): string {
  return sha256(stableJson({ location: stockLocationId, stock }))
}
