// Reads what the shop holds for products about to be updated: their live variants, each
// variant's size option value and metadata size, and the live inventory items linked to it.
// The update plans from this, not from the product map alone (a crash may have left the map
// behind the shop, or the map may name variants that were deleted since).
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { LiveVariant } from "../../sync/variant-changes"
import { liveItemsOfVariants } from "./live-inventory-links"
import { timed } from "./profile"

/** Live variants per product id. */
export type LiveVariants = Record<string, LiveVariant[]>

export async function readLiveVariants(container: MedusaContainer, productIds: string[]): Promise<LiveVariants> {
  const out: LiveVariants = Object.fromEntries(productIds.map((id) => [id, [] as LiveVariant[]]))
  if (!productIds.length) return out
  const variants = await timed(container, "product.listProductVariants live", () =>
    container
      .resolve(Modules.PRODUCT)
      .listProductVariants({ product_id: productIds }, { select: ["id", "product_id", "metadata"], relations: ["options"], take: null })
  )
  if (!variants.length) return out
  const itemsByVariant = await liveItemsOfVariants(
    container,
    variants.map((v) => v.id)
  )
  for (const v of variants) {
    const meta = (v.metadata ?? {}) as Record<string, unknown>
    const size = meta.catalog_size
    out[v.product_id!]?.push({
      id: v.id,
      optionValue: v.options?.[0]?.value ?? null,
      catalogSize: size === null ? null : typeof size === "string" ? size : undefined,
      inventoryItemIds: itemsByVariant.get(v.id) ?? [],
    })
  }
  return out
}

export const readLiveVariantsStep = createStep("catalog-sync-read-live-variants", async (productIds: string[], { container }) => {
  return new StepResponse(await readLiveVariants(container, productIds))
})
