// POST /admin/catalog-sync/test-connection {base_url?, api_key?}: /v1/me with the given or
// saved values; the saved key only goes to the saved base URL (another URL needs api_key).
// 200: {ok: true, account} or {ok: false, error: {code, message, request_id, expired_at?}}; an
// expired plan is a failure (`plan_expired` with its date: /v1/me answers, runs get 403); 400 for invalid input. The call waits in the
// key's one limiter (parallel checks queue behind a running sync), only public addresses are
// reached unless allowPrivateNetworks, and a failure is told in fixed words (helpers.apiErrorBody).
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { connectionCheckTarget, settingsPatchSchema } from "../../../../sync/settings"
import { accountProblem } from "./account-problem"
import { apiErrorBody, catalogSyncRuntime, catalogSyncService, fetchAccount, invalidData, publicAccount, zodFieldErrors } from "../helpers"

const bodySchema = settingsPatchSchema.pick({ base_url: true, api_key: true }).strict()

export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const parsed = bodySchema.safeParse(req.body ?? {})
  if (!parsed.success) return invalidData(res, zodFieldErrors(parsed.error as z.ZodError))
  const service = catalogSyncService(req.scope)
  const current = await service.getEffectiveSettings()
  const target = connectionCheckTarget(parsed.data, current)
  if (!target.ok) return invalidData(res, target.errors)
  const { baseUrl, apiKey } = target
  try {
    const { account } = await fetchAccount({ baseUrl, apiKey, apiKeyHash: null, pricing: current.pricing }, catalogSyncRuntime(req.scope).clients)
    const problem = accountProblem(account)
    if (problem) return res.json({ ok: false, error: problem })
    res.json({ ok: true, account: publicAccount(account) })
  } catch (e) {
    res.json({ ok: false, error: apiErrorBody(e, req.scope.resolve("logger"), "test connection") })
  }
}
