// Keeps the size option's words in step with the shop's vocabulary on products the plugin
// already made: the option title ("Size" → "Розмір") and the value of a one-size variant
// ("One size" → "Один розмір"). Runs before sizes are added, for products whose fields changed
// (a changed vocabulary changes every product's fields fingerprint). No compensation: the
// page is replayed on failure and the rename is idempotent.
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

type OptionLike = { id: string; title: string; values?: { id: string; value: string }[] | null }

/**
 * The size option of a product the plugin made: the one titled `title`, else its only option
 * (a product made under older labels has exactly one option, whatever it is called).
 */
export function sizeOptionOf<T extends OptionLike>(product: { options?: T[] | null }, title: string): T | null {
  const options = product.options ?? []
  return options.find((o) => o.title === title) ?? (options.length === 1 ? options[0] : null)
}

export interface SizeLabelsUpdate {
  productId: string
  optionTitle: string
  /** The one-size value when the product has no catalog sizes, else null. */
  oneSizeValue: string | null
}

/** The size-label updates of the products whose fields changed (the step's input, shaped in a transform). */
export function sizeLabelsUpdates(
  products: { productId: string; input: { optionTitle: string; variants: { sizeKey: string; optionValue: string }[] } }[],
  fieldsChanged: readonly string[]
): SizeLabelsUpdate[] {
  const wanted = new Set(fieldsChanged)
  return products
    .filter((p) => wanted.has(p.productId))
    .map((p) => ({
      productId: p.productId,
      optionTitle: p.input.optionTitle,
      oneSizeValue: p.input.variants.length === 1 && p.input.variants[0].sizeKey === "" ? p.input.variants[0].optionValue : null,
    }))
}

export const syncSizeLabelsStep = createStep("catalog-sync-size-labels", async (updates: SizeLabelsUpdate[], { container }) => {
  if (!updates.length) return new StepResponse(undefined)
  const productModule = container.resolve(Modules.PRODUCT)
  const products = await productModule.listProducts({ id: updates.map((u) => u.productId) }, { relations: ["options", "options.values"], take: null })
  const byId = new Map(products.map((p) => [p.id, p]))
  for (const u of updates) {
    const product = byId.get(u.productId)
    const option = product ? sizeOptionOf(product as { options?: OptionLike[] | null }, u.optionTitle) : null
    if (!option) continue
    if (option.title !== u.optionTitle) await productModule.updateProductOptions(option.id, { title: u.optionTitle })
    const values = option.values ?? []
    if (u.oneSizeValue !== null && values.length === 1 && values[0].value !== u.oneSizeValue) {
      await productModule.updateProductOptionValues(values[0].id, { value: u.oneSizeValue })
    }
  }
  return new StepResponse(undefined)
})
