// POST /admin/catalog-sync/runs/:id/confirm: apply what the safety brake held back, exactly
// as previewed; the admin user's id is recorded on the run (brake-answer.ts).
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { answerPausedRun } from "../brake-answer"

export async function POST(req: MedusaRequest, res: MedusaResponse) {
  await answerPausedRun(req, res, "confirmed")
}
