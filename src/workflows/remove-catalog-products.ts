// Products the catalog removed: soft-deleted with Medusa's own workflow (variants,
// prices and inventory go with them), or set to draft when the setting says so.
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { deleteProductsWorkflow } from "@medusajs/medusa/core-flows"

export type RemovalMode = "delete" | "draft"

export async function removeCatalogProducts(container: MedusaContainer, productIds: string[], mode: RemovalMode): Promise<void> {
  if (!productIds.length) return
  if (mode === "draft") {
    await container.resolve(Modules.PRODUCT).updateProducts({ id: productIds }, { status: "draft" })
    return
  }
  await deleteProductsWorkflow(container).run({ input: { ids: productIds } })
}
