// Writes a page's new products in bulk: one call per module instead of Medusa's
// per-product path (products + options + variants + images, then price sets,
// inventory items and levels, links). Each step compensates, so a failed page leaves
// no half-made product behind.
import { ProductWorkflowEvents } from "@medusajs/framework/utils"
import { createWorkflow, parallelize, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { emitEventStep } from "@medusajs/medusa/core-flows"
import type { CreatedProduct, Placement, ProductToCreate } from "./page-input"
import { createCatalogProductsStep } from "./steps/create-products-step"
import { createVariantInventoryStep } from "./steps/create-variant-inventory-step"
import { createVariantPricesStep } from "./steps/create-variant-prices-step"
import { linkProductsStep } from "./steps/link-products-step"

export interface CreateCatalogProductsInput {
  products: ProductToCreate[]
  placement: Placement
}

export const createCatalogProductsWorkflow = createWorkflow("catalog-sync-create-catalog-products", (input: CreateCatalogProductsInput) => {
  const created = createCatalogProductsStep(input.products)

  const variantRows = transform({ input, created }, ({ input, created }) => {
    const prices: { variantId: string; amount: string | null }[] = []
    const stock: { variantId: string; sku: string; title: string; quantity: number }[] = []
    input.products.forEach((p, i) => {
      for (const v of p.input.variants) {
        const variantId = created[i].variantIds[v.sizeKey]
        prices.push({ variantId, amount: v.amount })
        stock.push({ variantId, sku: v.sku, title: `${p.input.title} ${v.title}`, quantity: p.stock[v.sizeKey] ?? 0 })
      }
    })
    return { prices, stock, productIds: created.map((c) => c.productId) }
  })

  // Prices, inventory and product links are independent: written concurrently.
  const [, itemIds] = parallelize(
    createVariantPricesStep(variantRows.prices),
    createVariantInventoryStep(
      transform({ variantRows, input }, ({ variantRows, input }) => ({
        variants: variantRows.stock,
        stockLocationId: input.placement.stockLocationId,
      }))
    ),
    linkProductsStep(
      transform({ variantRows, input }, ({ variantRows, input }) => ({
        productIds: variantRows.productIds,
        salesChannelId: input.placement.salesChannelId,
        shippingProfileId: input.placement.shippingProfileId,
      }))
    )
  )

  const result = transform({ input, created, itemIds }, ({ input, created, itemIds }): CreatedProduct[] => {
    let k = 0
    return input.products.map((p, i) => {
      const inventoryItemIds: Record<string, string> = {}
      for (const v of p.input.variants) inventoryItemIds[v.sizeKey] = itemIds[k++]
      return { ...created[i], inventoryItemIds }
    })
  })
  // The same event Medusa's createProductsWorkflow emits, so the shop's subscribers see our products.
  emitEventStep({
    eventName: ProductWorkflowEvents.CREATED,
    data: transform({ created }, ({ created }) => created.map((c) => ({ id: c.productId }))),
  })
  return new WorkflowResponse(result)
})
