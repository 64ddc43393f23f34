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

/**
 * SKU → a live inventory item with that SKU that no other live variant uses: what a crashed
 * write left (Medusa refuses a second item with the SKU), taken instead of made again.
 * `owner`: the variant each SKU is for, when it exists already (its own link does not count).
 */
export async function adoptableItemsBySku(container: MedusaContainer, wanted: { sku: string; owner?: string }[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const skus = [...new Set(wanted.map((w) => w.sku).filter(Boolean))]
  if (!skus.length) return out
  const bySku = await container.resolve(Modules.INVENTORY).listInventoryItems({ sku: skus }, { select: ["id", "sku"], take: null })
  if (!bySku.length) return out
  // An item another live variant uses is not ours to take.
  const itemLinks = await variantItemLinks(container, { inventory_item_id: bySku.map((i) => i.id) })
  const otherVariantIds = [...new Set(itemLinks.map((l) => l.variant_id))]
  const liveVariants = new Set(
    otherVariantIds.length
      ? (await container.resolve(Modules.PRODUCT).listProductVariants({ id: otherVariantIds }, { select: ["id"], take: null })).map((v) => v.id)
      : []
  )
  for (const w of wanted) {
    const item = bySku.find((i) => i.sku === w.sku)
    if (!item) continue
    const users = itemLinks.filter((l) => l.inventory_item_id === item.id && liveVariants.has(l.variant_id) && l.variant_id !== w.owner)
    if (!users.length) out.set(w.sku, item.id)
  }
  return out
}
