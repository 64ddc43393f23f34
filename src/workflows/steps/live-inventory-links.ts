// The live inventory items linked to variants (a link may outlive its item): read by the update
// planning (read-live-variants-step.ts) and by inventory creation to adopt what a crash made.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"

export type VariantItemLink = { variant_id: string; inventory_item_id: string }

export async function variantItemLinks(container: MedusaContainer, filters: Record<string, string[]>): Promise<VariantItemLink[]> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "product_variant_inventory_item",
    fields: ["variant_id", "inventory_item_id"],
    filters,
  })
  return data as VariantItemLink[]
}

/** variant id → its linked live inventory items, in link order. */
export async function liveItemsOfVariants(container: MedusaContainer, variantIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>()
  if (!variantIds.length) return out
  const links = await variantItemLinks(container, { variant_id: variantIds })
  const itemIds = [...new Set(links.map((l) => l.inventory_item_id))]
  const live = new Set(
    itemIds.length ? (await container.resolve(Modules.INVENTORY).listInventoryItems({ id: itemIds }, { select: ["id"], take: null })).map((i) => i.id) : []
  )
  for (const l of links) {
    if (!live.has(l.inventory_item_id)) continue
    out.set(l.variant_id, [...(out.get(l.variant_id) ?? []), l.inventory_item_id])
  }
  return out
}
