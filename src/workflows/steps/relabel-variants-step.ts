// Puts kept variants back on the catalog's size value when the admin renamed it (the variant
// of size "40" moved to a value "40 EU"): the catalog owns the size labels. The catalog's value
// joins the product's size option (reused when the option has it), the variant points at it
// (same variant, so orders and carts keep it), and the prune step that follows removes the
// admin's value, which no live variant uses any more. Without this, the prune would ask Medusa
// to remove a value a live variant uses, which Medusa refuses (validateOptionRemoval_), and the
// product would be rejected on every later change of its sizes. Compensation points the
// variants back at the value they had.
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { RelabeledVariant } from "../../sync/variant-changes"
import { sizeOptionOf } from "./size-labels-step"
import { timed } from "./profile"

export const relabelVariantsStep = createStep(
  "catalog-sync-relabel-variants",
  async (relabeled: RelabeledVariant[], { container }) => {
    if (!relabeled.length) return new StepResponse(0, [] as RelabeledVariant[])
    const productModule = container.resolve(Modules.PRODUCT)
    const productIds = [...new Set(relabeled.map((r) => r.productId))]
    const products = await productModule.listProducts({ id: productIds }, { relations: ["options"], take: null })
    const optionOf = new Map(
      products.map(
        (p) =>
          [p.id, sizeOptionOf(p as { options?: { id: string; title: string }[] | null }, relabeled.find((r) => r.productId === p.id)!.optionTitle)] as const
      )
    )
    const todo = relabeled.filter((r) => optionOf.get(r.productId)).map((r) => ({ ...r, optionTitle: optionOf.get(r.productId)!.title }))
    if (!todo.length) return new StepResponse(0, [] as RelabeledVariant[])
    await timed(container, "product.updateProductOptionValuesOnProduct relabel", () =>
      productModule.updateProductOptionValuesOnProduct(
        [...new Set(todo.map((r) => r.productId))].map((productId) => ({
          product_id: productId,
          product_option_id: optionOf.get(productId)!.id,
          add: todo.filter((r) => r.productId === productId).map((r) => ({ value: r.to })),
        }))
      )
    )
    for (const r of todo) {
      await timed(container, "product.updateProductVariants relabel", () =>
        productModule.updateProductVariants(r.variantId, { options: { [r.optionTitle]: r.to } })
      )
    }
    return new StepResponse(todo.length, todo)
  },
  async (done, { container }) => {
    if (!done?.length) return
    const productModule = container.resolve(Modules.PRODUCT)
    for (const r of done) {
      if (r.from === null) continue
      await productModule.updateProductVariants(r.variantId, { options: { [r.optionTitle]: r.from } }).catch(() => undefined)
    }
  }
)
