// Pure: which of a page's updates changed their product fields (title, texts, gallery,
// categories, metadata…) but not their variants, so the bulk writer can write them as the
// update workflow would: the product row, images and category links, the base prices when
// they changed too, and the stock levels. The shop must hold exactly the sizes the product
// map names, the size option must already carry the catalog's words and the product must
// already be in the sync's sales channel (and have a shipping profile): anything the update
// workflow would repair, relabel, rename or link stays with it.
import type { PriceChange, ProductColumns, ProductFieldsUpdate, StockChange } from "../../bulk-write"
import { reconcileWithShop } from "../../sync/variant-changes"
import { productFields, type ProductToUpdate } from "../page-input"
import { priceAndStockWrites, type LivePricedVariant } from "./price-only-changes"

/** The plan changed the product fields, not the variants; prices, if changed, are all set. */
export function fieldsChangedWithoutVariants(p: ProductToUpdate): boolean {
  const parts = p.partsToWrite
  return !!parts && parts.fields && !parts.variants && (!parts.prices || p.input.variants.every((v) => v.amount !== null))
}

/** What the shop holds of a product beyond its variants, as the update workflow's side steps would check it. */
export interface LiveProductState {
  /** The product's options with their values. */
  options: { title: string; values: string[] }[]
  inSalesChannel: boolean
  hasShippingProfile: boolean
}

export interface FieldsOnlySplit {
  bulk: ProductToUpdate[]
  rest: ProductToUpdate[]
}

/** The size-labels step would leave the option alone: it has the catalog's title (and one-size value). */
function sizeWordsInPlace(p: ProductToUpdate, state: LiveProductState): boolean {
  const option = state.options.find((o) => o.title === p.input.optionTitle)
  if (!option) return false
  const oneSize = p.input.variants.length === 1 && p.input.variants[0].sizeKey === "" ? p.input.variants[0].optionValue : null
  return oneSize === null || option.values.length !== 1 || option.values[0] === oneSize
}

export function splitFieldsOnly(
  products: ProductToUpdate[],
  live: Record<string, LivePricedVariant[]>,
  states: Record<string, LiveProductState>,
  needsShippingProfile: boolean,
): FieldsOnlySplit {
  const out: FieldsOnlySplit = { bulk: [], rest: [] }
  for (const p of products) {
    const variants = live[p.productId] ?? []
    const state = states[p.productId]
    const r = reconcileWithShop(p, variants)
    const priced = new Set(variants.filter((v) => v.hasPriceSet).map((v) => v.id))
    const fits =
      fieldsChangedWithoutVariants(p) &&
      !!state &&
      state.inSalesChannel &&
      (!needsShippingProfile || state.hasShippingProfile) &&
      sizeWordsInPlace(p, state) &&
      !r.repaired &&
      !r.relabeled?.length &&
      !r.staleVariantIds?.length &&
      p.input.variants.every((v) => r.variantIds[v.sizeKey] && r.inventoryItemIds[v.sizeKey] && (!p.partsToWrite!.prices || priced.has(r.variantIds[v.sizeKey])))
    if (fits) out.bulk.push({ ...p, variantIds: r.variantIds, inventoryItemIds: r.inventoryItemIds })
    else out.rest.push(p)
  }
  return out
}

/** The product module's update input of a product (productFields, locks applied) as the bulk writer takes it. */
export function productFieldsUpdate(p: ProductToUpdate): ProductFieldsUpdate {
  const { images, category_ids, ...columns } = productFields(p.input, p.lockedFields) as ReturnType<typeof productFields> & {
    images?: { url: string }[]
    category_ids?: string[]
  }
  return {
    productId: p.productId,
    columns: columns as ProductColumns,
    ...(images ? { images: images.map((i) => i.url) } : {}),
    ...(category_ids ? { categoryIds: [...category_ids] } : {}),
  }
}

/** Everything the bulk products write: product fields, base prices (when they changed, unlocked), stock (unlocked). */
export function fieldsOnlyWrites(products: ProductToUpdate[]): { updates: ProductFieldsUpdate[]; prices: PriceChange[]; levels: StockChange[] } {
  const { prices, levels } = priceAndStockWrites(products, (p) => !!p.partsToWrite?.prices)
  return { updates: products.map(productFieldsUpdate), prices, levels }
}
