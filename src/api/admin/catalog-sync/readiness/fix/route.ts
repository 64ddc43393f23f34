// POST /admin/catalog-sync/readiness/fix {check}: carries out one checklist item's fix and
// answers with the checklist as it now stands.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { ZodError } from "zod"
import { catalogSyncRuntime, catalogSyncService, invalidData, zodFieldErrors } from "../../helpers"
import { fixBodySchema, fixCheck, fixRefusal, inspectReadiness } from "../checks"

export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const parsed = fixBodySchema.safeParse(req.body ?? {})
  if (!parsed.success) return invalidData(res, zodFieldErrors(parsed.error as unknown as ZodError))
  const service = catalogSyncService(req.scope)
  const settings = await service.getEffectiveSettings()
  const check = parsed.data.check
  const refusal = fixRefusal(settings, check)
  if (refusal) return invalidData(res, [refusal])
  await fixCheck(
    req.scope,
    settings,
    check,
    async (field) => {
      await service.saveSettings({ [field]: null })
    },
    async () => {
      const queue = await catalogSyncRuntime(req.scope).queue()
      await queue.enqueueRun({ mode: "full", trigger: "manual" })
    }
  )
  const fresh = await service.getEffectiveSettings()
  res.json({ fixed: check, readiness: await inspectReadiness(req.scope, fresh) })
}
