// Writes the product-level fields (title, texts, status, images in order, thumbnail,
// metadata) of changed products in one call. No compensation: the page's map rows and
// cursor are stored only after the whole page commits, so a failed page is replayed
// and rewrites the same values (updates are idempotent).
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { timed } from "./profile"
import { productFields, type ProductToUpdate } from "../page-input"

export const updateProductFieldsStep = createStep("catalog-sync-update-product-fields", async (products: ProductToUpdate[], { container }) => {
  if (!products.length) return new StepResponse(undefined)
  await timed(container, "product.upsertProducts", () =>
    container.resolve(Modules.PRODUCT).upsertProducts(products.map((p) => ({ id: p.productId, ...productFields(p.input, p.lockedFields) })))
  )
  return new StepResponse(undefined)
})
