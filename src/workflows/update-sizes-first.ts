// The first half of the core-flows writer's updates (update-products-through-core-flows.ts; the
// bulk writer's size path does the same in SQL): the product map checked against the shop's live
// variants (reconcileWithShop: a deleted variant is never addressed, one a crashed write made is
// adopted), what changes (variantChanges), the option words, lost sizes deleted (those an open
// order reserved kept, off sale), renamed ones put back and unused values pruned. A composition
// helper: called inside a workflow's constructor, its steps are that workflow's own.
import { transform, when } from "@medusajs/framework/workflows-sdk"
import { deleteProductVariantsWorkflow } from "@medusajs/medusa/core-flows"
import { reconcileWithShop, variantChanges } from "../sync/variant-changes"
import type { CreatedProduct, ProductToUpdate } from "./page-input"
import { changedKeptVariantsStep } from "./steps/changed-kept-variants-step"
import { keepReservedSizesStep } from "./steps/keep-reserved-sizes-step"
import { pruneOptionValuesStep } from "./steps/prune-option-values-step"
import { readLiveVariantsStep } from "./steps/read-live-variants-step"
import { relabelVariantsStep } from "./steps/relabel-variants-step"
import { sizeLabelsUpdates, syncSizeLabelsStep } from "./steps/size-labels-step"

export function updateSizesFirst(input: { products: ProductToUpdate[] }) {
  const live = readLiveVariantsStep(transform({ input }, ({ input }) => input.products.map((p) => p.productId)))
  const products = transform({ input, live }, ({ input, live }) => input.products.map((p) => reconcileWithShop(p, live[p.productId] ?? [])))
  const planned = transform({ products }, ({ products }) => variantChanges(products))
  // Of the kept variants, only those whose fields or price differ are written (and named by product-variant.updated).
  const keptChanged = changedKeptVariantsStep(transform({ planned }, ({ planned }) => ({ fields: planned.keptFields, prices: planned.keptPrices })))
  const changes = transform({ planned, keptChanged }, ({ planned, keptChanged }) => ({
    ...planned,
    keptFields: keptChanged.fields,
    keptPrices: keptChanged.prices,
  }))

  // Option words first: a one-size value renamed in place is not pruned as stale below, and
  // the sizes added next join the option under its current title.
  syncSizeLabelsStep(transform({ input, changes }, ({ input, changes }) => sizeLabelsUpdates(input.products, changes.fieldsChanged)))
  // Lost sizes an open order reserved stay for it, off sale (deleteProductVariantsWorkflow would refuse them).
  const lost = keepReservedSizesStep(transform({ changes }, ({ changes }) => changes.removedVariantIds))
  when({ lost }, ({ lost }) => lost.removable.length > 0).then(() => {
    deleteProductVariantsWorkflow.runAsStep({ input: transform({ lost }, ({ lost }) => ({ ids: lost.removable })) })
  })
  // A kept variant whose size value was renamed in the admin goes back to the catalog's value
  // first, so the renamed value is unused when it is pruned.
  relabelVariantsStep(transform({ changes }, ({ changes }) => changes.relabeled))
  pruneOptionValuesStep(transform({ changes }, ({ changes }) => changes.optionValues))
  return { products, changes }
}

type Changes = ReturnType<typeof variantChanges>

/**
 * What the product map records for each updated product: its kept sizes' variant and inventory
 * item ids, and those of the sizes added (`added`, in `changes.added` order) and of the kept
 * variants that got an inventory item (`repairedItemIds`, in `changes.keptWithoutInventory` order).
 */
export function updatedProductIds(
  products: readonly ProductToUpdate[],
  changes: Pick<Changes, "added" | "keptWithoutInventory">,
  added: { variantIds: readonly string[]; itemIds: readonly string[] },
  repairedItemIds: readonly string[]
): CreatedProduct[] {
  return products.map((p) => {
    const wanted = new Set(p.input.variants.map((v) => v.sizeKey))
    const variantIds: Record<string, string> = {}
    const inventoryItemIds: Record<string, string> = {}
    for (const [k, v] of Object.entries(p.variantIds)) if (wanted.has(k)) variantIds[k] = v
    for (const [k, v] of Object.entries(p.inventoryItemIds)) if (wanted.has(k)) inventoryItemIds[k] = v
    changes.added.forEach((a, i) => {
      if (a.catalogId !== p.catalogId) return
      variantIds[a.sizeKey] = added.variantIds[i]
      inventoryItemIds[a.sizeKey] = added.itemIds[i]
    })
    changes.keptWithoutInventory.forEach((a, i) => {
      if (a.catalogId === p.catalogId) inventoryItemIds[a.sizeKey] = repairedItemIds[i]
    })
    return { catalogId: p.catalogId, productId: p.productId, variantIds, inventoryItemIds }
  })
}
