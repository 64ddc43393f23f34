// Pure: how each changed product's variants change — sizes kept (updated in place, so
// variant ids survive for orders and carts), sizes gained (new variants) and sizes lost
// (variants removed with their prices and inventory).
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
}

export interface KeptVariant {
  variantId: string
  title: string
  sku: string
  metadata: Record<string, unknown>
  amount: string | null
}

export interface AddedVariant {
  catalogId: string
  productId: string
  sizeKey: string
  title: string
  sku: string
  optionValue: string
  metadata: Record<string, unknown>
  amount: string | null
  quantity: number
}

export function variantChanges(products: ProductVariantsBefore[]) {
  const kept: KeptVariant[] = []
  const keptLevels: { inventoryItemId: string; quantity: number }[] = []
  const added: AddedVariant[] = []
  const removedVariantIds: string[] = []
  for (const p of products) {
    const wanted = new Set(p.input.variants.map((v) => v.sizeKey))
    for (const [sizeKey, variantId] of Object.entries(p.variantIds)) {
      if (!wanted.has(sizeKey)) removedVariantIds.push(variantId)
    }
    for (const v of p.input.variants) {
      const variantId = p.variantIds[v.sizeKey]
      const quantity = p.stock[v.sizeKey] ?? 0
      if (variantId) {
        kept.push({ variantId, title: v.title, sku: v.sku, metadata: v.metadata, amount: v.amount })
        const itemId = p.inventoryItemIds[v.sizeKey]
        if (itemId) keptLevels.push({ inventoryItemId: itemId, quantity })
      } else {
        added.push({
          catalogId: p.catalogId,
          productId: p.productId,
          sizeKey: v.sizeKey,
          title: v.title,
          sku: v.sku,
          optionValue: v.optionValue,
          metadata: v.metadata,
          amount: v.amount,
          quantity,
        })
      }
    }
  }
  return { kept, keptLevels, added, removedVariantIds }
}
