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

/**
 * The shop holds the product as the plan expects, so the update workflow's side steps would
 * do nothing a bulk write skips: in the sales channel (and a shipping profile when the shop
 * has one), the size option's words in place, nothing to repair or relabel, no live variant
 * but those the map names, and each kept size with its inventory item (and a price set when
 * `needsPriceSet`).
 */
export function shopAsPlanned(
  p: ProductToUpdate,
  r: ReturnType<typeof reconcileWithShop>,
  variants: LivePricedVariant[],
  state: LiveProductState | undefined,
  needsShippingProfile: boolean,
  needsPriceSet: boolean
): boolean {
  const priced = new Set(variants.filter((v) => v.basePrice).map((v) => v.id))
  const lostVariantIds = new Set(
    Object.entries(p.variantIds)
      .filter(([k]) => !p.input.variants.some((v) => v.sizeKey === k))
      .map(([, id]) => id)
  )
  return (
    !!state &&
    state.inSalesChannel &&
    (!needsShippingProfile || state.hasShippingProfile) &&
    sizeWordsInPlace(p, state) &&
    !r.repaired &&
    !r.relabeled?.length &&
    (r.staleVariantIds ?? []).every((id) => lostVariantIds.has(id)) &&
    p.input.variants.every((v) => {
      const id = r.variantIds[v.sizeKey]
      return !id || (r.inventoryItemIds[v.sizeKey] && (!needsPriceSet || priced.has(id)))
    })
  )
}

export function splitFieldsOnly(
  products: ProductToUpdate[],
  live: Record<string, LivePricedVariant[]>,
  states: Record<string, LiveProductState>,
  needsShippingProfile: boolean
): FieldsOnlySplit {
  const out: FieldsOnlySplit = { bulk: [], rest: [] }
  for (const p of products) {
    const variants = live[p.productId] ?? []
    const r = reconcileWithShop(p, variants)
    const fits =
      fieldsChangedWithoutVariants(p) &&
      shopAsPlanned(p, r, variants, states[p.productId], needsShippingProfile, !!p.partsToWrite!.prices) &&
      !r.staleVariantIds?.length &&
      p.input.variants.every((v) => r.variantIds[v.sizeKey])
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
