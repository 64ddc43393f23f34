// GET /admin/catalog-sync/readiness: the storefront readiness checklist (live state).
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { catalogSyncService } from "../helpers"
import { inspectReadiness } from "./checks"

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const settings = await catalogSyncService(req.scope).getEffectiveSettings()
  res.json({ readiness: await inspectReadiness(req.scope, settings) })
}
