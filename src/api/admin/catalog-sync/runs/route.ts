// POST /admin/catalog-sync/runs {mode}: 202 with the queued run, or the active one
// (already_running), or the run the safety brake paused (waiting_for_answer: nothing starts
// until the admin confirms or discards it). GET: paged history, newest first.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { catalogSyncRuntime, catalogSyncService, invalidData, pagingFields, serializeRun, zodFieldErrors } from "../helpers"

const startSchema = z.object({ mode: z.enum(["changes", "full"]).default("changes") }).strict()
const listSchema = z.object(pagingFields(100, 20))

export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const parsed = startSchema.safeParse(req.body ?? {})
  if (!parsed.success) return invalidData(res, zodFieldErrors(parsed.error as z.ZodError))
  const settings = await catalogSyncService(req.scope).getEffectiveSettings()
  if (!settings.baseUrl) return invalidData(res, [{ field: "base_url", message: "set the catalog API address first" }])
  if (!settings.apiKey) return invalidData(res, [{ field: "api_key", message: "set the catalog API key first" }])
  if (!settings.enabled) return invalidData(res, [{ field: "enabled", message: "the sync is disabled in the settings" }])
  const queue = await catalogSyncRuntime(req.scope).queue()
  const { run, alreadyRunning } = await queue.enqueueRun({ mode: parsed.data.mode, trigger: "manual" })
  res.status(202).json({ run: serializeRun(run), already_running: alreadyRunning, waiting_for_answer: alreadyRunning && run.status === "paused" })
}

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const parsed = listSchema.safeParse(req.query ?? {})
  if (!parsed.success) return invalidData(res, zodFieldErrors(parsed.error as z.ZodError))
  const { limit, offset } = parsed.data
  const [runs, count] = await catalogSyncService(req.scope).listAndCountCatalogSyncRuns({}, { order: { created_at: "DESC" }, skip: offset, take: limit })
  res.json({ runs: runs.map((r) => serializeRun(r)), count, limit, offset })
}
