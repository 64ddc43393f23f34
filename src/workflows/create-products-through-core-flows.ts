// The workflows write path's creates: Medusa's createProductsWorkflow (products, options,
// variants with their prices, default inventory items, sales channel and shipping profile links,
// its hooks: productsCreated, productVariantsCreated, and every event it emits), then the stock
// levels through batchInventoryItemLevelsWorkflow. One workflow, so a failure compensates both.
//
// Medusa's engine copies what a transform or step reads (page/sealed.ts). The chunk's products,
// with all their catalog data, are read by two transforms: one makes createProductsWorkflow's
// input, the other what the steps after it need of each product (its SKUs and stock by size,
// small), which the later transforms read instead. The page hands the chunk over sealed, so
// neither read copies a product.
import { createWorkflow, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { batchInventoryItemLevelsWorkflow, createProductsWorkflow } from "@medusajs/medusa/core-flows"
import { productToCreateInput, type CreatedProduct, type Placement, type ProductToCreate } from "./page-input"
import { peek, type Sealed } from "./page/sealed"
import { pricesOf } from "./steps/create-variant-prices-step"
import { splitStockLevelsStep } from "./steps/split-stock-levels-step"
import { variantInventoryItemsStep } from "./steps/variant-inventory-items-step"

export const createProductsThroughCoreFlowsWorkflowId = "catalog-sync-create-products-through-core-flows"

export interface CreateThroughCoreFlowsInput {
  /** The products, plain or sealed (the page's step seals them: sealShared). */
  products: ProductToCreate[] | Sealed<ProductToCreate[]>
  placement: Placement
}

const productsOf = (input: CreateThroughCoreFlowsInput): readonly ProductToCreate[] =>
  typeof input.products === "string" ? peek(input.products) : input.products

/** What the steps after createProductsWorkflow need of one product: its SKUs and stock by size. */
interface ExpectedProduct {
  catalogId: string
  sizes: { sizeKey: string; sku: string; quantity: number }[]
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
    input: transform({ input }, ({ input }) => ({ products: productsOf(input).map((p) => coreFlowsProductOf(p, input.placement)) as never })),
  })
  const expected = transform({ input }, ({ input }) =>
    productsOf(input).map(({ catalogId, input: product, stock }): ExpectedProduct => ({
      catalogId,
      sizes: product.variants.map((v) => ({ sizeKey: v.sizeKey, sku: v.sku, quantity: stock[v.sizeKey] ?? 0 })),
    }))
  )
  // Variant ids by size, in input order (found by external id and SKU, not by position).
  const variants = transform({ expected, created }, ({ expected, created }) => {
    const byExternalId = new Map(
      (created as { id: string; external_id: string | null; variants?: { id: string; sku: string | null }[] }[]).map((p) => [p.external_id, p])
    )
    return expected.map(({ catalogId, sizes }) => {
      const made = byExternalId.get(catalogId)
      if (!made) throw new Error(`product for catalog id ${catalogId} was not created`)
      const variantIds: Record<string, string> = {}
      for (const v of sizes) {
        const variant = made.variants?.find((pv) => pv.sku === v.sku)
        if (!variant) throw new Error(`variant ${v.sku} of catalog id ${catalogId} was not created`)
        variantIds[v.sizeKey] = variant.id
      }
      return { catalogId, productId: made.id, variantIds }
    })
  })
  const itemOf = variantInventoryItemsStep(transform({ variants }, ({ variants }) => variants.flatMap((v) => Object.values(v.variantIds))))
  const result = transform({ variants, itemOf }, ({ variants, itemOf }): CreatedProduct[] =>
    variants.map((v) => {
      const inventoryItemIds: Record<string, string> = {}
      for (const [size, variantId] of Object.entries(v.variantIds)) {
        const item = itemOf[variantId]
        if (!item) throw new Error(`variant ${variantId} of catalog id ${v.catalogId} has no inventory item`)
        inventoryItemIds[size] = item
      }
      return { ...v, inventoryItemIds }
    })
  )
  const levels = splitStockLevelsStep(
    transform({ input, expected, result }, ({ input, expected, result }) => ({
      levels: result.flatMap((r, i) => {
        const quantity = new Map(expected[i].sizes.map((s) => [s.sizeKey, s.quantity]))
        return Object.entries(r.inventoryItemIds).map(([size, inventoryItemId]) => ({ inventoryItemId, quantity: quantity.get(size) ?? 0 }))
      }),
      stockLocationId: input.placement.stockLocationId,
    }))
  )
  batchInventoryItemLevelsWorkflow.runAsStep({ input: levels })
  return new WorkflowResponse(result)
})
