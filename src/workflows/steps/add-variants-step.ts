// Adds variants for sizes a product gained: the size joins the product's size option (and
// the product's own subset of its values), then the variants are created. A variant a crashed
// attempt already made (same product, same option value) is adopted instead of created again
// (Medusa would refuse: "Variant (…) with provided options already exists"). Compensation
// deletes only the variants this step created.
import { Modules, ProductVariantWorkflowEvents } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { sizeOptionOf } from "./size-labels-step"
import type { AddedVariant } from "../../sync/variant-changes"
import { timed } from "./profile"
import { emitFromStep } from "./emit-from-step"

export const addVariantsStep = createStep(
  "catalog-sync-add-variants",
  async (variants: AddedVariant[], context) => {
    const { container } = context
    if (!variants.length) return new StepResponse([] as string[], [] as string[])
    const productModule = container.resolve(Modules.PRODUCT)
    const productIds = [...new Set(variants.map((v) => v.productId))]
    const [products, live] = await Promise.all([
      productModule.listProducts({ id: productIds }, { relations: ["options"], take: null }),
      productModule.listProductVariants({ product_id: productIds }, { select: ["id", "product_id"], relations: ["options"], take: null }),
    ])
    const existing = new Map<string, string>()
    for (const v of live) for (const o of v.options ?? []) existing.set(`${v.product_id}\u0000${o.value}`, v.id)
    const key = (v: AddedVariant) => `${v.productId}\u0000${v.optionValue}`
    // The size option: the wanted title, or the product's only option (one made under an earlier label).
    const optionOf = new Map(
      products.map((product) => {
        const wanted = variants.find((v) => v.productId === product.id)!.optionTitle
        const option = sizeOptionOf(product, wanted)
        if (!option) throw new Error(`product ${product.id} has no "${wanted}" option`)
        return [product.id, option] as const
      })
    )
    // Medusa 2.21 keeps a per-product subset of an option's values: a new size must be
    // added to the option and to the product's subset before a variant can use it.
    await timed(container, "product.updateProductOptionValuesOnProduct add", () =>
      productModule.updateProductOptionValuesOnProduct(
        products.map((product) => {
          const values = variants.filter((v) => v.productId === product.id).map((v) => ({ value: v.optionValue }))
          return { product_id: product.id, product_option_id: optionOf.get(product.id)!.id, add: values }
        })
      )
    )
    const toCreate = variants.filter((v) => !existing.has(key(v)))
    const created = toCreate.length
      ? await timed(container, "product.createProductVariants", () =>
          productModule.createProductVariants(
            toCreate.map((v) => ({
              product_id: v.productId,
              title: v.title,
              sku: v.sku,
              variant_rank: v.rank,
              options: { [optionOf.get(v.productId)!.title]: v.optionValue },
              manage_inventory: true,
              metadata: v.metadata,
            }))
          )
        )
      : []
    const createdIds = toCreate.map((v) => {
      const hit = created.find((c) => c.product_id === v.productId && c.sku === v.sku)
      if (!hit) throw new Error(`variant ${v.sku} was not created`)
      existing.set(key(v), hit.id)
      return hit.id
    })
    const adopted = variants.filter((v) => !toCreate.includes(v))
    if (adopted.length) {
      // Adopted variants get this write's title, SKU and metadata.
      await productModule.upsertProductVariants(
        adopted.map((v) => ({ id: existing.get(key(v))!, title: v.title, sku: v.sku, variant_rank: v.rank, metadata: v.metadata }))
      )
    }
    // createProductVariantsWorkflow's public event, for the variants made here (not the adopted ones).
    await emitFromStep(context, ProductVariantWorkflowEvents.CREATED, createdIds)
    return new StepResponse(
      variants.map((v) => existing.get(key(v))!),
      createdIds
    )
  },
  async (ids, { container }) => {
    if (ids?.length) await container.resolve(Modules.PRODUCT).deleteProductVariants(ids)
  }
)
