// The bulk writer's translations: one batch of translation rows, then the events
// batchTranslationsWorkflow emits for it (translation.created / .updated / .deleted, one `{ id }`
// message per row, after the writes). Updates and deletes go through the module's service; new
// rows through the bulk writer's insert (src/bulk-write/translations.ts, the module's rows). The
// workflow engine's per-call cost is left out: a page ran two such workflows of five steps
// each. Writes are a diff against the stored rows, so a page that fails midway is put right by
// its replay.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, TranslationWorkflowEvents } from "@medusajs/framework/utils"
import { emitInSlices, internalMessages } from "../../bulk-write/events"
import { RowJournal } from "../../bulk-write/row-journal"
import { insertTranslations } from "../../bulk-write/translations"
import { timed } from "../../workflows/steps/profile"
import type { TranslationBatch } from "../shop-writer"

type TranslationWrites = {
  getTranslatableFields(): Promise<Record<string, string[]>>
  updateTranslations(data: TranslationBatch["update"]): Promise<{ id: string }[]>
  softDeleteTranslations(ids: string[]): Promise<unknown>
}

export async function writeTranslationsInBulk(container: MedusaContainer, batch: TranslationBatch): Promise<void> {
  if (!batch.create.length && !batch.update.length && !batch.delete.length) return
  const service = container.resolve(Modules.TRANSLATION) as unknown as TranslationWrites
  const messages: { name: string; data: { id: string } }[] = []
  // The rows the module's service did not write itself: their internal events, as its ORM hooks would emit them.
  const inserted = new RowJournal()
  if (batch.delete.length) {
    await service.softDeleteTranslations(batch.delete)
    for (const id of batch.delete) messages.push({ name: TranslationWorkflowEvents.DELETED, data: { id } })
  }
  if (batch.update.length) {
    const updated = await service.updateTranslations(batch.update)
    for (const t of updated) messages.push({ name: TranslationWorkflowEvents.UPDATED, data: { id: t.id } })
  }
  if (batch.create.length) {
    // New rows in one insert: the module's ORM create costs a round of its own per row.
    const fields = await service.getTranslatableFields()
    const ids = await timed(container, "bulk.insertTranslations", () => insertTranslations(container, batch.create, fields))
    for (const id of ids) messages.push({ name: TranslationWorkflowEvents.CREATED, data: { id } })
    inserted.record("translation", "created", ids)
  }
  const eventBus = container.resolve(Modules.EVENT_BUS)
  await emitInSlices(eventBus, internalMessages(inserted), { internal: true })
  await emitInSlices(eventBus, messages)
}
