// Before createProductVariantsWorkflow can give a product a new size, the size must be a value of
// the product's size option and of the product's own subset of its values (Medusa 2.21). Returns
// the size option's title per product (a product made under an earlier label keeps its own).
// Idempotent: a value already there stays as it is.
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { AddedVariant } from "../../sync/variant-changes"
import { sizeOptionOf } from "./size-labels-step"

export const addSizeValuesStepId = "catalog-sync-add-size-values"

export const addSizeValuesStep = createStep(addSizeValuesStepId, async (variants: AddedVariant[], { container }) => {
  const titles: Record<string, string> = {}
  if (!variants.length) return new StepResponse(titles)
  const productModule = container.resolve(Modules.PRODUCT)
  const productIds = [...new Set(variants.map((v) => v.productId))]
  const products = await productModule.listProducts({ id: productIds }, { relations: ["options"], take: null })
  const updates = products.map((product) => {
    const wanted = variants.find((v) => v.productId === product.id)!.optionTitle
    const option = sizeOptionOf(product, wanted)
    if (!option) throw new Error(`product ${product.id} has no "${wanted}" option`)
    titles[product.id] = option.title
    return {
      product_id: product.id,
      product_option_id: option.id,
      add: variants.filter((v) => v.productId === product.id).map((v) => ({ value: v.optionValue })),
    }
  })
  await productModule.updateProductOptionValuesOnProduct(updates)
  return new StepResponse(titles)
})
