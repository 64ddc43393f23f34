// The admin's answer to a run the safety brake paused (POST …/runs/:id/confirm and …/discard):
// recorded on the paused run (action, admin user id, time), remembered in the sync state for
// the run that continues it (src/sync/safety-brake.ts), and that run is queued and named on the
// paused run's answer (`continued_by`).
//   confirm: the removals the run held and the pause listed (changes feed, sweep, narrowed
//            filter: held-removals.ts) become approved, and the continuing run applies exactly
//            those before it reads a page; a paused page's steep price drops are approved;
//   discard: the held removals are recorded as discarded and never applied, now or by a later
//            run or sweep, until the catalog sends the product again (the cursor has already
//            moved past them); a drop keeps the size's price until the catalog's price moves
//            again; the rest of the paused page is written and the run goes on.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { answeredMemory, brakeMemoryOf, type BrakePause } from "../../../../../sync/safety-brake"
import { answerHolds } from "../../../../../modules/catalog_sync/sql/held-removals"
import { catalogSyncRuntime, catalogSyncService, serializeRun } from "../../helpers"

export type BrakeAnswer = "confirmed" | "discarded"

export async function answerPausedRun(req: MedusaRequest, res: MedusaResponse, action: BrakeAnswer) {
  const service = catalogSyncService(req.scope)
  const [run] = await service.listCatalogSyncRuns({ id: req.params.id }, { take: 1 })
  if (!run) return res.status(404).json({ type: "not_found", message: `Catalog sync run ${req.params.id} was not found` })
  if (run.status !== "paused" || run.brake_resolution) {
    return res.status(409).json({ type: "conflict", code: "not_paused", message: "This run is not waiting for an answer" })
  }
  const userId = (req as MedusaRequest & { auth_context?: { actor_id?: string } }).auth_context?.actor_id ?? null
  const pause = (run.brake ?? {}) as Partial<BrakePause>
  // The held rows the pause listed are the record of its removals; first, so a crash after this
  // leaves them answered (approved ones are applied by the next run, discarded ones never).
  const answeredIds = await answerHolds(req.scope, run.id, action)
  const ids = answeredIds.length ? answeredIds : Array.isArray(pause.removal_ids) ? pause.removal_ids : []
  const drops = brakeMemoryOf({ approved_drops: pause.price_drops }).approved_drops
  const state = await service.getState()
  const next = answeredMemory(brakeMemoryOf(state.brake_memory), action, ids, drops)
  await service.updateCatalogSyncStates({ id: state.id, brake_memory: next })
  const resolution = { action, user_id: userId, at: new Date().toISOString(), removals: ids.length, price_drops: Object.keys(drops).length }
  const answered = await service.updateCatalogSyncRuns({ id: run.id, brake_resolution: resolution })
  const queue = await catalogSyncRuntime(req.scope).queue()
  const continued = await queue.continuePausedRun(answered)
  // The paused run's page names the run that carried its answer out (it links to it).
  const linked = await service.updateCatalogSyncRuns({ id: run.id, brake_resolution: { ...resolution, continued_by: continued.id } })
  res.json({ run: serializeRun(linked), continued_by: serializeRun(continued) })
}
