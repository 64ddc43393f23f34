// The workflows write path's creates: Medusa's createProductsWorkflow (products, options,
// variants with their prices, default inventory items, sales channel and shipping profile links,
// its hooks: productsCreated, productVariantsCreated, and every event it emits), then the stock
// levels through batchInventoryItemLevelsWorkflow. One workflow, so a failure compensates both.
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { batchInventoryItemLevelsWorkflow, createProductsWorkflow } from "@medusajs/medusa/core-flows"
import { productToCreateInput, type CreatedProduct, type Placement, type ProductToCreate } from "./page-input"
import { pricesOf } from "./steps/variant-prices"
import { splitStockLevelsStep } from "./steps/split-stock-levels-step"
import { variantInventoryItemsStep } from "./steps/variant-inventory-items-step"

export const createProductsThroughCoreFlowsWorkflowId = "catalog-sync-create-products-through-core-flows"

export interface CreateThroughCoreFlowsInput {
  products: ProductToCreate[]
  placement: Placement
}

/** createProductsWorkflow's input for one catalog product. */
export function coreFlowsProductOf({ input }: ProductToCreate, placement: Placement) {
  const product = productToCreateInput(input)
  return {
    ...product,
    variants: product.variants.map((v, i) => ({ ...v, prices: pricesOf(input.variants[i].amount) })),
    sales_channels: [{ id: placement.salesChannelId }],
    ...(placement.shippingProfileId ? { shipping_profile_id: placement.shippingProfileId } : {}),
  }
}

export const createProductsThroughCoreFlowsWorkflow = createWorkflow(createProductsThroughCoreFlowsWorkflowId, (input: CreateThroughCoreFlowsInput) => {
  const created = createProductsWorkflow.runAsStep({
    input: transform({ input }, ({ input }) => ({ products: input.products.map((p) => coreFlowsProductOf(p, input.placement)) as never })),
  })
  // Variant ids by size, in input order (found by external id and SKU, not by position).
  const variants = transform({ input, created }, ({ input, created }) => {
    const byExternalId = new Map(
      (created as { id: string; external_id: string | null; variants?: { id: string; sku: string | null }[] }[]).map((p) => [p.external_id, p])
    )
    return input.products.map(({ catalogId, input: product }) => {
      const made = byExternalId.get(catalogId)
      if (!made) throw new Error(`product for catalog id ${catalogId} was not created`)
      const variantIds: Record<string, string> = {}
      for (const v of product.variants) {
        const variant = made.variants?.find((pv) => pv.sku === v.sku)
        if (!variant) throw new Error(`variant ${v.sku} of catalog id ${catalogId} was not created`)
        variantIds[v.sizeKey] = variant.id
      }
      return { catalogId, productId: made.id, variantIds }
    })
  })
  const itemOf = variantInventoryItemsStep(transform({ variants }, ({ variants }) => variants.flatMap((v) => Object.values(v.variantIds))))
  const result = transform({ input, variants, itemOf }, ({ input, variants, itemOf }): CreatedProduct[] =>
    variants.map((v, i) => {
      const inventoryItemIds: Record<string, string> = {}
      for (const [size, variantId] of Object.entries(v.variantIds)) {
        const item = itemOf[variantId]
        if (!item) throw new Error(`variant ${variantId} of catalog id ${input.products[i].catalogId} has no inventory item`)
        inventoryItemIds[size] = item
      }
      return { ...v, inventoryItemIds }
    })
  )
  const levels = splitStockLevelsStep(
    transform({ input, result }, ({ input, result }) => ({
      levels: result.flatMap((r, i) =>
        Object.entries(r.inventoryItemIds).map(([size, inventoryItemId]) => ({ inventoryItemId, quantity: input.products[i].stock[size] ?? 0 }))
      ),
      stockLocationId: input.placement.stockLocationId,
    }))
  )
  batchInventoryItemLevelsWorkflow.runAsStep({ input: levels })
  return new WorkflowResponse(result)
})
