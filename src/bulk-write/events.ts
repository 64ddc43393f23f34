// The events Medusa's own workflows emit for the same changes, collected during a page's
// transaction and emitted only after it commits (as emitEventStep does at workflow end).
import type { MedusaContainer } from "@medusajs/framework/types"
import { InventoryItemWorkflowEvents, InventoryLevelWorkflowEvents, Modules, ProductWorkflowEvents } from "@medusajs/framework/utils"

export const BULK_EVENTS = {
  productCreated: ProductWorkflowEvents.CREATED,
  productUpdated: ProductWorkflowEvents.UPDATED,
  productDeleted: ProductWorkflowEvents.DELETED,
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
  messages(): { name: string; data: { id: string } }[] {
    const out: { name: string; data: { id: string } }[] = []
    for (const [name, ids] of this.byName) for (const id of ids) out.push({ name, data: { id } })
    return out
  }

  async emit(container: MedusaContainer): Promise<void> {
    const messages = this.messages()
    if (!messages.length) return
    await container.resolve(Modules.EVENT_BUS).emit(messages)
  }
}
