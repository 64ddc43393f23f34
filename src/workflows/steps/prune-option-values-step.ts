// A product's size option holds exactly its current sizes: after the variants of lost sizes
// are deleted, their values leave the product (and the option itself, when the option is the
// product's own), so no stale size value is left for a storefront to offer. A size that
// comes back later gets a fresh value. Runs after the variant deletion (Medusa refuses to
// remove a value a live variant uses): a value a live variant still uses, such as a size kept
// for an open order, stays.
import { Modules } from "@medusajs/framework/utils"
import { valuesInUse } from "../../bulk-write"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { sizeOptionOf } from "./size-labels-step"
import { timed } from "./profile"

export interface WantedOptionValues {
  productId: string
  /** The product's size option title (a product made under an earlier label has it as its only option). */
  optionTitle: string
  /** The option values the product's variants use now. */
  values: string[]
}

type OptionRow = { id: string; title: string; is_exclusive?: boolean; values?: { id: string; value: string }[] }

export const pruneOptionValuesStep = createStep("catalog-sync-prune-option-values", async (wanted: WantedOptionValues[], { container }) => {
  if (!wanted.length) return new StepResponse(0)
  const productModule = container.resolve(Modules.PRODUCT)
  const products = await timed(container, "product.listProducts options", () =>
    productModule.listProducts({ id: wanted.map((w) => w.productId) }, { select: ["id"], relations: ["options", "options.values"], take: null })
  )
  const byId = new Map(products.map((p) => [p.id, p]))
  const inUse = await valuesInUse(
    container,
    wanted.map((w) => w.productId)
  )
  const removals: { product_id: string; product_option_id: string; remove: string[] }[] = []
  const exclusiveValueIds: string[] = []
  for (const w of wanted) {
    const options = (byId.get(w.productId)?.options ?? []) as unknown as OptionRow[]
    const option = sizeOptionOf({ options }, w.optionTitle)
    if (!option) continue
    const keep = new Set(w.values)
    const stale = (option.values ?? []).filter((v) => !keep.has(v.value) && !inUse.has(v.id)).map((v) => v.id)
    if (!stale.length) continue
    removals.push({ product_id: w.productId, product_option_id: option.id, remove: stale })
    if (option.is_exclusive) exclusiveValueIds.push(...stale)
  }
  if (removals.length)
    await timed(container, "product.updateProductOptionValuesOnProduct remove", () => productModule.updateProductOptionValuesOnProduct(removals))
  if (exclusiveValueIds.length)
    await timed(container, "product.softDeleteProductOptionValues", () => productModule.softDeleteProductOptionValues(exclusiveValueIds))
  return new StepResponse(removals.length)
})
