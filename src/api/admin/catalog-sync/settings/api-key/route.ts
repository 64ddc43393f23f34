// DELETE /admin/catalog-sync/settings/api-key: "Disconnect". Removes the saved key and pauses
// scheduled syncs (see disconnect.ts). 200 {settings, options_key_applies}; 409 {type:
// "conflict", code: "sync_running", message, running_run_id} while a run is running.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { disconnectCatalog, SYNC_RUNNING_MESSAGE } from "../disconnect"

export async function DELETE(req: MedusaRequest, res: MedusaResponse) {
  const outcome = await disconnectCatalog(req.scope)
  if (!outcome.ok) {
    return res.status(409).json({ type: "conflict", code: "sync_running", message: SYNC_RUNNING_MESSAGE, running_run_id: outcome.running_run_id })
  }
  res.json(outcome.body)
}
