// Pure: how each changed product's variants change — sizes kept (updated in place, so
// variant ids survive for orders and carts), sizes gained (new variants) and sizes lost
// (variants removed with their prices and inventory). The product map's ids are first
// checked against the shop's live variants (reconcileWithShop): the shop wins.
import { ALL_PARTS, type ChangedParts } from "./fingerprint"
import { DEFAULT_SIZE_KEY, type CatalogProduct, type StockInput } from "./catalog-product"

export interface ProductVariantsBefore {
  catalogId: string
  productId: string
  input: CatalogProduct
  stock: StockInput
  /** size key → variant id, from the product map */
  variantIds: Record<string, string>
  /** size key → inventory item id, from the product map */
  inventoryItemIds: Record<string, string>
  /** Which parts changed since the last write (product fields, variants, prices); absent = all. Stock is always set. */
  partsToWrite?: ChangedParts
  /** Live variants of the product that match no size of the card (removed with the lost sizes). */
  staleVariantIds?: string[]
  /**
   * Kept variants found by metadata whose option value is not the catalog's (renamed in the
   * admin, e.g. "40" → "40 EU"): put back on the catalog's value (the catalog owns the labels).
   */
  relabeled?: RelabeledVariant[]
  /**
   * Fields the shop locked on this product (src/field-locks): kept sizes get no price
   * ("prices") or stock level ("stock") from this write; new sizes still get both.
   */
  lockedFields?: readonly string[]
}

export interface RelabeledVariant {
  productId: string
  variantId: string
  /** The product's size option title. */
  optionTitle: string
  /** The value the variant uses in the shop now. */
  from: string | null
  /** The catalog's value it goes back to. */
  to: string
}

/** A live variant of a product as the shop holds it (read before an update). */
export interface LiveVariant {
  id: string
  /** The variant's value of the size option (null when it has none). */
  optionValue: string | null
  /** metadata.catalog_size as written by the plugin (null for a card without sizes; undefined when absent). */
  catalogSize?: string | null
  /** Live inventory items linked to the variant. */
  inventoryItemIds: string[]
}

/**
 * The product's variants by size as the shop holds them, instead of as the product map
 * remembers them. A size's variant is the live variant with that option value (else the one
 * whose metadata names the size), so a variant a crashed write made is adopted, a deleted one
 * is never addressed, and a live variant of no current size is removed. `repaired` when the
 * map disagreed: then every part of the product is rewritten (its prices and inventory may be
 * what the crash left), its fields too unless the map only lacked live variants.
 */
export function reconcileWithShop(p: ProductVariantsBefore, live: LiveVariant[]): ProductVariantsBefore & { repaired: boolean } {
  const unclaimed = [...live]
  const claim = (test: (v: LiveVariant) => boolean) => {
    const at = unclaimed.findIndex(test)
    return at < 0 ? undefined : unclaimed.splice(at, 1)[0]
  }
  const variantIds: Record<string, string> = {}
  const inventoryItemIds: Record<string, string> = {}
  const wanted = p.input.variants
  // Option values first (exact identity), then metadata (a relabelled option value).
  const matched = new Map<string, LiveVariant>()
  for (const v of wanted) {
    const hit = claim((l) => l.optionValue === v.optionValue)
    if (hit) matched.set(v.sizeKey, hit)
  }
  for (const v of wanted) {
    if (matched.has(v.sizeKey)) continue
    const size = v.sizeKey === DEFAULT_SIZE_KEY ? null : v.sizeKey
    const hit = claim((l) => l.catalogSize !== undefined && l.catalogSize === size)
    if (hit) matched.set(v.sizeKey, hit)
  }
  for (const v of wanted) {
    const hit = matched.get(v.sizeKey)
    if (!hit) continue
    variantIds[v.sizeKey] = hit.id
    const remembered = p.inventoryItemIds[v.sizeKey]
    const item = remembered && hit.inventoryItemIds.includes(remembered) ? remembered : hit.inventoryItemIds[0]
    if (item) inventoryItemIds[v.sizeKey] = item
  }
  const relabeled: RelabeledVariant[] = []
  for (const v of wanted) {
    const hit = matched.get(v.sizeKey)
    if (hit && hit.optionValue !== v.optionValue) {
      relabeled.push({ productId: p.productId, variantId: hit.id, optionTitle: p.input.optionTitle, from: hit.optionValue, to: v.optionValue })
    }
  }
  const staleVariantIds = unclaimed.map((l) => l.id)
  const same = (a: Record<string, string>, b: Record<string, string>) =>
    Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v)
  const mapWanted = (ids: Record<string, string>) => Object.fromEntries(Object.entries(ids).filter(([k]) => wanted.some((v) => v.sizeKey === k)))
  const lostSizes = Object.keys(p.variantIds).filter((k) => !wanted.some((v) => v.sizeKey === k))
  const strays = staleVariantIds.some((id) => !lostSizes.some((k) => p.variantIds[k] === id))
  const withoutItem = wanted.some((v) => variantIds[v.sizeKey] && !inventoryItemIds[v.sizeKey])
  const repaired = strays || !same(mapWanted(p.variantIds), variantIds) || !same(mapWanted(p.inventoryItemIds), inventoryItemIds) || withoutItem
  // The map only lacks sizes whose live variant (with its item) the shop holds, e.g. a size kept
  // for an open order that comes back, and agrees on the rest: its variants, prices and stock are
  // rewritten, the product's fields only if they changed (no product.updated for a stock change).
  const onlyAdopted =
    repaired &&
    !strays &&
    !withoutItem &&
    wanted.every(
      (v) => !p.variantIds[v.sizeKey] || (p.variantIds[v.sizeKey] === variantIds[v.sizeKey] && p.inventoryItemIds[v.sizeKey] === inventoryItemIds[v.sizeKey])
    )
  const partsToWrite = !repaired ? p.partsToWrite : onlyAdopted && p.partsToWrite ? { ...ALL_PARTS, fields: p.partsToWrite.fields } : ALL_PARTS
  return {
    ...p,
    variantIds,
    inventoryItemIds,
    staleVariantIds,
    relabeled,
    partsToWrite,
    repaired,
  }
}

export interface KeptVariant {
  variantId: string
  /** Position in size order (Medusa's variant_rank). */
  rank: number
  title: string
  sku: string
  metadata: Record<string, unknown>
  amount: string | null
}

export interface AddedVariant {
  catalogId: string
  productId: string
  sizeKey: string
  /** Position in size order (Medusa's variant_rank). */
  rank: number
  title: string
  sku: string
  /** The product's size option title (the option the new value joins). */
  optionTitle: string
  optionValue: string
  metadata: Record<string, unknown>
  amount: string | null
  quantity: number
  /** Set when the variant exists already (a kept variant that lacks its inventory item). */
  variantId?: string
}

function addedOf(p: ProductVariantsBefore, v: CatalogProduct["variants"][number], rank: number, quantity: number): AddedVariant {
  return {
    catalogId: p.catalogId,
    productId: p.productId,
    sizeKey: v.sizeKey,
    rank,
    title: v.title,
    sku: v.sku,
    optionTitle: p.input.optionTitle,
    optionValue: v.optionValue,
    metadata: v.metadata,
    amount: v.amount,
    quantity,
  }
}

export function variantChanges(products: ProductVariantsBefore[]) {
  /** Kept variants whose title, SKU or metadata changed. */
  const keptFields: KeptVariant[] = []
  /** Kept variants whose price changed. */
  const keptPrices: KeptVariant[] = []
  const kept: KeptVariant[] = []
  const keptLevels: { inventoryItemId: string; quantity: number }[] = []
  const added: AddedVariant[] = []
  /** Kept variants with no inventory item (a crash between variant and inventory): given one, adopted by SKU or new. */
  const keptWithoutInventory: AddedVariant[] = []
  const removedVariantIds: string[] = []
  for (const p of products) {
    const wanted = new Set(p.input.variants.map((v) => v.sizeKey))
    for (const [sizeKey, variantId] of Object.entries(p.variantIds)) {
      if (!wanted.has(sizeKey)) removedVariantIds.push(variantId)
    }
    for (const id of p.staleVariantIds ?? []) if (!removedVariantIds.includes(id)) removedVariantIds.push(id)
    for (const [rank, v] of p.input.variants.entries()) {
      const variantId = p.variantIds[v.sizeKey]
      const quantity = p.stock[v.sizeKey] ?? 0
      if (variantId) {
        const keptVariant = { variantId, rank, title: v.title, sku: v.sku, metadata: v.metadata, amount: v.amount }
        kept.push(keptVariant)
        if (p.partsToWrite?.variants ?? true) keptFields.push(keptVariant)
        if ((p.partsToWrite?.prices ?? true) && !p.lockedFields?.includes("prices")) keptPrices.push(keptVariant)
        const itemId = p.inventoryItemIds[v.sizeKey]
        if (itemId) {
          if (!p.lockedFields?.includes("stock")) keptLevels.push({ inventoryItemId: itemId, quantity })
        } else keptWithoutInventory.push({ ...addedOf(p, v, rank, quantity), variantId })
      } else {
        added.push(addedOf(p, v, rank, quantity))
      }
    }
  }
  const fieldsChanged = products.filter((p) => p.partsToWrite?.fields ?? true).map((p) => p.productId)
  /** Kept variants put back on the catalog's size value (before the option's values are pruned). */
  const relabeled = products.flatMap((p) => p.relabeled ?? [])
  /** Products whose variant set may have changed: their size option's values are made equal to the sizes. */
  const optionValues = products
    .filter((p) => (p.partsToWrite?.variants ?? true) || (p.relabeled?.length ?? 0) > 0)
    .map((p) => ({ productId: p.productId, optionTitle: p.input.optionTitle, values: p.input.variants.map((v) => v.optionValue) }))
  return { kept, keptFields, keptPrices, keptLevels, added, keptWithoutInventory, removedVariantIds, fieldsChanged, optionValues, relabeled }
}
