// A step's public workflow events, emitted as emitEventStep emits them: one `{ id }` message per
// entity into the workflow's event group, so they are released when the workflow finishes and
// cleared when it fails. For steps that write through a module service (whose ORM hooks emit only
// the module-internal events) where Medusa's own workflow for the same write emits a public one.
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"

export async function emitFromStep(context: { container: MedusaContainer; eventGroupId?: string }, eventName: string, ids: string[]): Promise<void> {
  if (!ids.length) return
  const metadata = context.eventGroupId ? { eventGroupId: context.eventGroupId } : {}
  await context.container.resolve(Modules.EVENT_BUS).emit(ids.map((id) => ({ name: eventName, data: { id }, metadata })))
}
