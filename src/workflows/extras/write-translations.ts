// One batch of translation rows through the translation module's own service, then the events
// batchTranslationsWorkflow emits for it (translation.created / .updated / .deleted, one `{ id }`
// message per row, after the writes). The rows are the module's (it normalizes the locale and
// counts the translated fields); only the workflow engine's per-call cost is left out: a page
// ran two such workflows of five steps each. Writes are a diff against the stored rows, so a
// page that fails midway is put right by its replay.
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules, TranslationWorkflowEvents } from "@medusajs/framework/utils"
import { timed } from "../steps/profile"

export interface TranslationBatch {
  create: { reference: string; reference_id: string; locale_code: string; translations: Record<string, string> }[]
  update: { id: string; translations: Record<string, string> }[]
  delete: string[]
}

type TranslationWrites = {
  createTranslations(data: TranslationBatch["create"]): Promise<{ id: string }[]>
  updateTranslations(data: TranslationBatch["update"]): Promise<{ id: string }[]>
  softDeleteTranslations(ids: string[]): Promise<unknown>
}

export async function writeTranslations(container: MedusaContainer, batch: TranslationBatch): Promise<void> {
  if (!batch.create.length && !batch.update.length && !batch.delete.length) return
  const service = container.resolve(Modules.TRANSLATION) as unknown as TranslationWrites
  const messages: { name: string; data: { id: string } }[] = []
  if (batch.delete.length) {
    await service.softDeleteTranslations(batch.delete)
    for (const id of batch.delete) messages.push({ name: TranslationWorkflowEvents.DELETED, data: { id } })
  }
  if (batch.update.length) {
    const updated = await service.updateTranslations(batch.update)
    for (const t of updated) messages.push({ name: TranslationWorkflowEvents.UPDATED, data: { id: t.id } })
  }
  if (batch.create.length) {
    const created = await timed(container, "translation.createTranslations", () => service.createTranslations(batch.create))
    for (const t of created) messages.push({ name: TranslationWorkflowEvents.CREATED, data: { id: t.id } })
  }
  if (messages.length) await container.resolve(Modules.EVENT_BUS).emit(messages)
}
