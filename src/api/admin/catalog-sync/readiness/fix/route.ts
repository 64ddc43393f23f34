// POST /admin/catalog-sync/readiness/fix {check}: carries out one checklist item's fix and
// answers with the checklist as it now stands. The body is validated by the middleware.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { catalogSyncRuntime, catalogSyncService, invalidData } from "../../helpers"
import { fixCheck, fixRefusal, inspectReadiness, type CheckId } from "../checks"

export async function POST(req: MedusaRequest<{ check: CheckId }>, res: MedusaResponse) {
  const service = catalogSyncService(req.scope)
  const settings = await service.getEffectiveSettings()
  const check = (req.validatedBody ?? req.body).check
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
