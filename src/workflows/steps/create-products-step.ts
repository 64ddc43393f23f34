// Creates a page's new products with their size option ("Розмір"), variants and images in one
// product-module call. Compensation deletes them.
import { Modules, ProductVariantWorkflowEvents } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { timed } from "./profile"
import { emitFromStep } from "./emit-from-step"
import { productToCreateInput, type ProductToCreate } from "../page-input"

export interface CreatedProductVariants {
  catalogId: string
  productId: string
  variantIds: Record<string, string>
}

export const createCatalogProductsStep = createStep(
  "catalog-sync-create-products",
  async (products: ProductToCreate[], context) => {
    const { container } = context
    if (!products.length) return new StepResponse([] as CreatedProductVariants[], [] as string[])
    const productModule = container.resolve(Modules.PRODUCT)
    const created = await timed(container, "product.createProducts", () =>
      productModule.createProducts(products.map(({ input }) => productToCreateInput(input)))
    )
    const byExternalId = new Map(created.map((p) => [p.external_id, p]))
    const result = products.map(({ catalogId, input }) => {
      const product = byExternalId.get(catalogId)
      if (!product) throw new Error(`product for catalog id ${catalogId} was not created`)
      const variantIds: Record<string, string> = {}
      for (const v of input.variants) {
        const variant = product.variants?.find((pv) => pv.sku === v.sku)
        if (!variant) throw new Error(`variant ${v.sku} of catalog id ${catalogId} was not created`)
        variantIds[v.sizeKey] = variant.id
      }
      return { catalogId, productId: product.id, variantIds }
    })
    // createProductsWorkflow's variants workflow emits product-variant.created (the inventory step emits the items' and levels').
    await emitFromStep(
      context,
      ProductVariantWorkflowEvents.CREATED,
      result.flatMap((r) => Object.values(r.variantIds))
    )
    return new StepResponse(
      result,
      created.map((p) => p.id)
    )
  },
  async (productIds, { container }) => {
    if (!productIds?.length) return
    await container.resolve(Modules.PRODUCT).deleteProducts(productIds)
  }
)
