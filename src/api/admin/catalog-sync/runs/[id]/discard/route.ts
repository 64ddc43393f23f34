// POST /admin/catalog-sync/runs/:id/discard: keep the shop as it is; the held-back removals are
// not proposed again until the catalog sends those products again (brake-answer.ts).
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { answerPausedRun } from "../brake-answer"

export async function POST(req: MedusaRequest, res: MedusaResponse) {
  await answerPausedRun(req, res, "discarded")
}
