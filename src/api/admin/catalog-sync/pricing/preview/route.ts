// POST /admin/catalog-sync/pricing/preview {pricing_rules}: what the rules would do, before they
// are saved: 10 sampled products (cost, current price → new price, crossed-out) and how many
// prices would move, up and down, by how much. Pure computation over the stored costs and the
// prices in Medusa; no writes, no API requests. Rules the settings would refuse get the same
// 400 naming the field, and no preview.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { parsePricingRules } from "../../../../../pricing"
import { catalogSyncService, invalidData } from "../../helpers"
import { loadKnownReferences, unknownReferenceErrors } from "../../known-references"
import { readStoredPrices } from "../stored-prices"
import { previewRules } from "./preview-plan"

export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const body = (req.body ?? {}) as Record<string, unknown>
  if (body.pricing_rules === undefined) return invalidData(res, [{ field: "pricing_rules", message: "is required" }])
  const parsed = parsePricingRules(body.pricing_rules)
  if (!parsed.ok)
    return invalidData(
      res,
      parsed.errors.map((e) => ({ field: `pricing_rules.${e.field}`, message: e.message }))
    )
  const unknownIds = unknownReferenceErrors(await loadKnownReferences(req.scope), { pricing_rules: parsed.rules })
  if (unknownIds.length) return invalidData(res, unknownIds)
  const settings = await catalogSyncService(req.scope).getEffectiveSettings()
  const calculation = settings.pricing.price_calculation
  const variants = await readStoredPrices(req.scope, calculation)
  const preview = previewRules(variants, parsed.rules)
  res.json({ price_calculation: calculation, currency_code: "uah", ...preview })
}
