// GET /admin/catalog-sync/progress[?run_id=]: the one progress view every admin screen shows (the
// top bar's chip, the product-list widget, the sync page, the run page) and requests today. Reads
// stored rows only: it never calls the catalog (/v1/me costs a request of the daily quota) nor the queue.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { invalidData, zodFieldErrors } from "../helpers"
import { progressOf } from "./progress-of"

const progressQuerySchema = z.object({ run_id: z.string().trim().min(1, "must be a run id").max(100, "must be at most 100 characters").optional() }).strict()

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const parsed = progressQuerySchema.safeParse(req.query ?? {})
  if (!parsed.success) return invalidData(res, zodFieldErrors(parsed.error))
  const answer = await progressOf(req.scope, parsed.data.run_id)
  if (!answer) {
    res.status(404).json({ type: "not_found", message: `Catalog sync run ${parsed.data.run_id} was not found` })
    return
  }
  res.json(answer)
}
