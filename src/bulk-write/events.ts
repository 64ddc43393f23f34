// The events Medusa's own workflows emit for the same changes, collected during a page's
// transaction and emitted only after it commits (as emitEventStep does at workflow end).
// The bulk writer is the sync's alone, so its product.updated events carry the sync's mark
// (SYNC_WRITE_MARK), as the update workflow's do: auto-lock must not take them for admin edits.
import type { MedusaContainer } from "@medusajs/framework/types"
import { InventoryItemWorkflowEvents, InventoryLevelWorkflowEvents, Modules, ProductVariantWorkflowEvents, ProductWorkflowEvents } from "@medusajs/framework/utils"
import { SYNC_WRITE_MARK } from "../field-locks/admin-edits"

export const BULK_EVENTS = {
  productCreated: ProductWorkflowEvents.CREATED,
  productUpdated: ProductWorkflowEvents.UPDATED,
  productDeleted: ProductWorkflowEvents.DELETED,
  variantDeleted: ProductVariantWorkflowEvents.DELETED,
  inventoryLevelCreated: InventoryLevelWorkflowEvents.CREATED,
  inventoryLevelUpdated: InventoryLevelWorkflowEvents.UPDATED,
  inventoryItemDeleted: InventoryItemWorkflowEvents.DELETED,
} as const

export class PendingEvents {
  private readonly byName = new Map<string, Set<string>>()

  add(name: string, ids: Iterable<string>): void {
    const set = this.byName.get(name) ?? new Set<string>()
    for (const id of ids) set.add(id)
    this.byName.set(name, set)
  }

  /** One `{ id }` message per entity and event name, like emitEventStep with an array of data. */
  messages(): { name: string; data: { id: string; [SYNC_WRITE_MARK]?: true } }[] {
    const out: { name: string; data: { id: string; [SYNC_WRITE_MARK]?: true } }[] = []
    for (const [name, ids] of this.byName) {
      const marked = name === BULK_EVENTS.productUpdated
      for (const id of ids) out.push({ name, data: marked ? { id, [SYNC_WRITE_MARK]: true } : { id } })
    }
    return out
  }

  async emit(container: MedusaContainer): Promise<void> {
    const messages = this.messages()
    if (!messages.length) return
    await container.resolve(Modules.EVENT_BUS).emit(messages)
  }
}
