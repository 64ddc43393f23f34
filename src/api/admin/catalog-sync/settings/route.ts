// GET/POST /admin/catalog-sync/settings. The key is never returned (masked ••••1234); a new
// key (or a new base URL) is checked against /v1/me before anything is saved; a pricing
// change starts a full resync, and so does any save of a shop that never synced (its first
// sync); the schedule follows the interval at once (see save-settings.ts). A change that trips
// a price guard is answered 409 {type: "confirmation_required", guards, preview} and not saved.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { toPublicSettings } from "../../../../sync/settings"
import { catalogSyncService, invalidData } from "../helpers"
import { saveCatalogSyncSettings } from "./save-settings"

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const settings = await catalogSyncService(req.scope).getEffectiveSettings()
  res.json({ settings: toPublicSettings(settings) })
}

export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const outcome = await saveCatalogSyncSettings(req.scope, req.body)
  if (!outcome.ok && outcome.confirm) {
    // Nothing saved: the admin confirms with the preview in front of them, then sends the same
    // body again with confirm_price_guards: true.
    return res.status(409).json({
      type: "confirmation_required",
      code: "price_guards",
      message: `Confirm the price change: ${outcome.confirm.guards.map((g) => g.message).join("; ")}`,
      ...outcome.confirm,
    })
  }
  if (!outcome.ok) return invalidData(res, outcome.errors)
  res.json(outcome.body)
}
