// Pure: how each changed product's variants change — sizes kept (updated in place, so
// variant ids survive for orders and carts), sizes gained (new variants) and sizes lost
// (variants removed with their prices and inventory).
import type { ChangedParts } from "./fingerprint"
import type { ProductInput, StockInput } from "./product-input"

export interface ProductVariantsBefore {
  catalogId: string
  productId: string
  input: Omit<ProductInput, "details">
  stock: StockInput
  /** size key → variant id, from the product map */
  variantIds: Record<string, string>
  /** size key → inventory item id, from the product map */
  inventoryItemIds: Record<string, string>
  /** Which parts changed since the last write (product fields, variants, prices); absent = all. Stock is always set. */
  changed?: ChangedParts
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
}

export function variantChanges(products: ProductVariantsBefore[]) {
  /** Kept variants whose title, SKU or metadata changed. */
  const keptFields: KeptVariant[] = []
  /** Kept variants whose price changed. */
  const keptPrices: KeptVariant[] = []
  const kept: KeptVariant[] = []
  const keptLevels: { inventoryItemId: string; quantity: number }[] = []
  const added: AddedVariant[] = []
  const removedVariantIds: string[] = []
  for (const p of products) {
    const wanted = new Set(p.input.variants.map((v) => v.sizeKey))
    for (const [sizeKey, variantId] of Object.entries(p.variantIds)) {
      if (!wanted.has(sizeKey)) removedVariantIds.push(variantId)
    }
    for (const [rank, v] of p.input.variants.entries()) {
      const variantId = p.variantIds[v.sizeKey]
      const quantity = p.stock[v.sizeKey] ?? 0
      if (variantId) {
        const keptVariant = { variantId, rank, title: v.title, sku: v.sku, metadata: v.metadata, amount: v.amount }
        kept.push(keptVariant)
        if (p.changed?.variants ?? true) keptFields.push(keptVariant)
        if (p.changed?.prices ?? true) keptPrices.push(keptVariant)
        const itemId = p.inventoryItemIds[v.sizeKey]
        if (itemId) keptLevels.push({ inventoryItemId: itemId, quantity })
      } else {
        added.push({
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
        })
      }
    }
  }
  const fieldsChanged = products.filter((p) => p.changed?.fields ?? true).map((p) => p.productId)
  return { kept, keptFields, keptPrices, keptLevels, added, removedVariantIds, fieldsChanged }
}
