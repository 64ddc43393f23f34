// Adds variants for sizes a product gained: the size joins the product's size
// option (and the product's own subset of its values), then the variants are created. Compensation deletes the new variants.
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { sizeOptionOf } from "./size-labels-step"
import type { AddedVariant } from "../../sync/variant-changes"

export const addVariantsStep = createStep(
  "catalog-sync-add-variants",
  async (variants: AddedVariant[], { container }) => {
    if (!variants.length) return new StepResponse([] as string[], [] as string[])
    const productModule = container.resolve(Modules.PRODUCT)
    const productIds = [...new Set(variants.map((v) => v.productId))]
    const products = await productModule.listProducts({ id: productIds }, { relations: ["options"], take: null })
    // Medusa 2.21 keeps a per-product subset of an option's values: a new size must be
    // added to the option and to the product's subset before a variant can use it.
    const optionTitles = new Map<string, string>()
    await productModule.updateProductOptionValuesOnProduct(
      products.map((product) => {
        const wanted = variants.find((v) => v.productId === product.id)!.optionTitle
        const option = sizeOptionOf(product, wanted)
        if (!option) throw new Error(`product ${product.id} has no "${wanted}" option`)
        optionTitles.set(product.id, option.title)
        const values = variants.filter((v) => v.productId === product.id).map((v) => ({ value: v.optionValue }))
        return { product_id: product.id, product_option_id: option.id, add: values }
      })
    )
    const created = await productModule.createProductVariants(
      variants.map((v) => ({
        product_id: v.productId,
        title: v.title,
        sku: v.sku,
        variant_rank: v.rank,
        options: { [optionTitles.get(v.productId)!]: v.optionValue },
        manage_inventory: true,
        metadata: v.metadata,
      }))
    )
    const bySku = new Map(created.map((c) => [c.sku, c.id]))
    const ids = variants.map((v) => {
      const id = bySku.get(v.sku)
      if (!id) throw new Error(`variant ${v.sku} was not created`)
      return id
    })
    return new StepResponse(ids, ids)
  },
  async (ids, { container }) => {
    if (ids?.length) await container.resolve(Modules.PRODUCT).deleteProductVariants(ids)
  }
)
