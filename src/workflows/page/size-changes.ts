// Pure: which of a page's updates with changed sizes (a size added, removed, reordered) the bulk
// writer can write, and what those writes are: exactly the update workflow's plan
// (variantChanges) for products the shop holds as the plan expects. Anything the workflow would
// repair, relabel or adopt (a crash's leftovers, an admin's renamed size, an item with the new
// size's SKU) stays with the update workflow. A lost size with stock reserved by an open order is
// the bulk writer's too: both paths keep it off sale for the order (bulk-write/open-orders.ts).
import type { PriceChange, ProductFieldsUpdate, SizeChange, StockChange } from "../../bulk-write"
import { reconcileWithShop, variantChanges } from "../../sync/variant-changes"
import type { CreatedProduct, ProductToUpdate } from "../page-input"
import { productFieldsUpdate, shopAsPlanned, type LiveProductState } from "./fields-only-changes"
import type { LivePricedVariant } from "./price-only-changes"

/** The plan changed the sizes (an adopted leftover, with nothing known, is the workflow's). */
export function sizesChanged(p: ProductToUpdate): boolean {
  return !!p.partsToWrite?.variants
}

function writesKeptPrices(p: ProductToUpdate): boolean {
  return !!p.partsToWrite?.prices && !p.lockedFields?.includes("prices")
}

/** A product the bulk writer takes, with its ids as the shop holds them and the workflow's plan for it. */
export interface PlannedSizeChange {
  item: ProductToUpdate
  plan: ReturnType<typeof variantChanges>
}

export interface SizeChangeSplit {
  bulk: PlannedSizeChange[]
  rest: ProductToUpdate[]
}

/** What else the shop holds that the workflow would act on: live variants or items with a new size's SKU. */
export interface SizeChangeBlockers {
  takenSkus: Set<string>
}

export function splitSizeChanges(
  products: ProductToUpdate[],
  live: Record<string, LivePricedVariant[]>,
  states: Record<string, LiveProductState>,
  needsShippingProfile: boolean
): SizeChangeSplit {
  const out: SizeChangeSplit = { bulk: [], rest: [] }
  for (const p of products) {
    const variants = live[p.productId] ?? []
    const r = reconcileWithShop(p, variants)
    if (sizesChanged(p) && shopAsPlanned(p, r, variants, states[p.productId], needsShippingProfile, writesKeptPrices(p))) {
      const item = { ...p, variantIds: r.variantIds, inventoryItemIds: r.inventoryItemIds, staleVariantIds: r.staleVariantIds, relabeled: [] }
      out.bulk.push({ item, plan: variantChanges([item]) })
    } else out.rest.push(p)
  }
  return out
}

/** The planned products the blockers leave to the workflow. */
export function withoutBlocked(split: SizeChangeSplit, blockers: SizeChangeBlockers): SizeChangeSplit {
  const out: SizeChangeSplit = { bulk: [], rest: [...split.rest] }
  for (const planned of split.bulk) {
    const blocked = planned.plan.added.some((a) => blockers.takenSkus.has(a.sku))
    if (blocked) out.rest.push(planned.item)
    else out.bulk.push(planned)
  }
  return out
}

/** The bulk writes of the planned products: size changes, kept sizes' prices and levels, product fields where they changed. */
export function sizeChangeWrites(planned: PlannedSizeChange[]): {
  changes: SizeChange[]
  prices: PriceChange[]
  /** Kept sizes the catalog no longer prices: their base price goes. */
  unpriced: string[]
  levels: StockChange[]
  updates: ProductFieldsUpdate[]
} {
  const changes = planned.map(({ item, plan }) => ({
    productId: item.productId,
    optionTitle: item.input.optionTitle,
    removedVariantIds: plan.removedVariantIds,
    values: item.input.variants.map((v) => v.optionValue),
    kept: plan.keptFields.map((k) => ({ variantId: k.variantId, rank: k.rank, title: k.title, sku: k.sku, metadata: k.metadata })),
    added: plan.added.map((a) => ({
      title: a.title,
      sku: a.sku,
      rank: a.rank,
      optionValue: a.optionValue,
      metadata: a.metadata,
      amount: a.amount,
      stock: a.quantity,
    })),
  }))
  return {
    changes,
    prices: planned.flatMap(({ plan }) => plan.keptPrices.filter((k) => k.amount !== null).map((k) => ({ variantId: k.variantId, amount: k.amount! }))),
    unpriced: planned.flatMap(({ plan }) => plan.keptPrices.filter((k) => k.amount === null).map((k) => k.variantId)),
    levels: planned.flatMap(({ plan }) => plan.keptLevels),
    updates: planned.filter(({ plan }) => plan.fieldsChanged.length).map(({ item }) => productFieldsUpdate(item)),
  }
}

/** What the update workflow returns for a planned product, given its added sizes' new variant and item ids (in plan order). */
export function writtenSizeChange({ item, plan }: PlannedSizeChange, added: { variantId: string; inventoryItemId: string }[]): CreatedProduct {
  const variantIds: Record<string, string> = {}
  const inventoryItemIds: Record<string, string> = {}
  for (const v of item.input.variants) {
    if (item.variantIds[v.sizeKey]) variantIds[v.sizeKey] = item.variantIds[v.sizeKey]
    if (item.inventoryItemIds[v.sizeKey]) inventoryItemIds[v.sizeKey] = item.inventoryItemIds[v.sizeKey]
  }
  plan.added.forEach((a, i) => {
    variantIds[a.sizeKey] = added[i].variantId
    inventoryItemIds[a.sizeKey] = added[i].inventoryItemId
  })
  return { catalogId: item.catalogId, productId: item.productId, variantIds, inventoryItemIds }
}
