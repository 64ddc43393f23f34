// One inventory item per new variant, its level at the sync's stock location, and the
// variant ↔ item link. What a crashed attempt already made is adopted, not made twice: a
// variant already linked to a live item keeps it; an unlinked live item with the variant's
// SKU (no other live variant uses it) is linked instead of creating one Medusa would refuse
// (SKUs are unique); an existing level is set rather than created. Compensation dismisses the
// links and deletes the items this step created.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, InventoryItemWorkflowEvents, InventoryLevelWorkflowEvents, Modules } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import { adoptableItemsBySku, liveItemsOfVariants, type VariantItemLink } from "./live-inventory-links"
import { timed } from "./profile"
import { emitFromStep } from "./emit-from-step"

export interface VariantStock {
  variantId: string
  sku: string
  title: string
  quantity: number
}

/** variant id → item id for what already exists: linked live items, else unlinked live items with the variant's SKU. */
async function existingItems(container: MedusaContainer, variants: VariantStock[]): Promise<{ items: Map<string, string>; linked: Set<string> }> {
  const items = new Map<string, string>()
  const linked = new Set<string>()
  for (const [variantId, itemIds] of await liveItemsOfVariants(
    container,
    variants.map((v) => v.variantId)
  )) {
    items.set(variantId, itemIds[0])
    linked.add(variantId)
  }
  const bare = variants.filter((v) => !items.has(v.variantId) && v.sku)
  const adoptable = await adoptableItemsBySku(
    container,
    bare.map((v) => ({ sku: v.sku, owner: v.variantId }))
  )
  for (const v of bare) {
    const itemId = adoptable.get(v.sku)
    if (itemId) items.set(v.variantId, itemId)
  }
  return { items, linked }
}

export const createVariantInventoryStep = createStep(
  "catalog-sync-create-variant-inventory",
  async (input: { variants: VariantStock[]; stockLocationId: string }, context) => {
    const { container } = context
    const { variants, stockLocationId } = input
    if (!variants.length) return new StepResponse([] as string[], { itemIds: [] as string[], variantIds: [] as string[], links: [] as VariantItemLink[] })
    const inventory = container.resolve(Modules.INVENTORY)
    const { items, linked } = await existingItems(container, variants)
    const fresh = variants.filter((v) => !items.has(v.variantId))
    const created = fresh.length
      ? await timed(container, "inventory.createInventoryItems", () =>
          inventory.createInventoryItems(fresh.map((v) => ({ sku: v.sku, title: v.title, requires_shipping: true })))
        )
      : []
    fresh.forEach((v, i) => items.set(v.variantId, created[i].id))
    const itemIds = variants.map((v) => items.get(v.variantId)!)

    const levels = await inventory.listInventoryLevels(
      { inventory_item_id: itemIds, location_id: stockLocationId },
      { select: ["id", "inventory_item_id", "stocked_quantity"], take: null }
    )
    const levelOf = new Map(levels.map((l) => [l.inventory_item_id, l]))
    const toCreate = variants.filter((v) => !levelOf.has(items.get(v.variantId)!))
    const toUpdate = variants.filter(
      (v) => levelOf.has(items.get(v.variantId)!) && Number(levelOf.get(items.get(v.variantId)!)!.stocked_quantity) !== v.quantity
    )
    let createdLevelIds: string[] = []
    let updatedLevelIds: string[] = []
    if (toCreate.length) {
      const createdLevels = await timed(container, "inventory.createInventoryLevels", () =>
        inventory.createInventoryLevels(
          toCreate.map((v) => ({ inventory_item_id: items.get(v.variantId)!, location_id: stockLocationId, stocked_quantity: v.quantity }))
        )
      )
      createdLevelIds = createdLevels.map((l) => l.id)
    }
    if (toUpdate.length) {
      updatedLevelIds = toUpdate.map((v) => levelOf.get(items.get(v.variantId)!)!.id)
      await inventory.updateInventoryLevels(
        toUpdate.map((v) => ({ inventory_item_id: items.get(v.variantId)!, location_id: stockLocationId, stocked_quantity: v.quantity }))
      )
    }
    const newLinks: VariantItemLink[] = variants
      .filter((v) => !linked.has(v.variantId))
      .map((v) => ({ variant_id: v.variantId, inventory_item_id: items.get(v.variantId)! }))
    if (newLinks.length) {
      const link = container.resolve(ContainerRegistrationKeys.LINK)
      await timed(container, "link.create variant-inventory", () =>
        link.create(
          newLinks.map((l) => ({
            [Modules.PRODUCT]: { variant_id: l.variant_id },
            [Modules.INVENTORY]: { inventory_item_id: l.inventory_item_id },
            data: { required_quantity: 1 },
          }))
        )
      )
    }
    // What createInventoryItemsWorkflow and batchInventoryItemLevelsWorkflow emit for the same rows.
    await emitFromStep(
      context,
      InventoryItemWorkflowEvents.CREATED,
      created.map((c) => c.id)
    )
    await emitFromStep(context, InventoryLevelWorkflowEvents.CREATED, createdLevelIds)
    await emitFromStep(context, InventoryLevelWorkflowEvents.UPDATED, updatedLevelIds)
    return new StepResponse(itemIds, { itemIds: created.map((c) => c.id), variantIds: fresh.map((v) => v.variantId), links: newLinks })
  },
  async (undo, { container }) => {
    if (!undo) return
    if (undo.links?.length) {
      await container
        .resolve(ContainerRegistrationKeys.LINK)
        .dismiss(undo.links.map((l) => ({ [Modules.PRODUCT]: { variant_id: l.variant_id }, [Modules.INVENTORY]: { inventory_item_id: l.inventory_item_id } })))
    }
    if (undo.itemIds.length) await container.resolve(Modules.INVENTORY).deleteInventoryItems(undo.itemIds)
  }
)
