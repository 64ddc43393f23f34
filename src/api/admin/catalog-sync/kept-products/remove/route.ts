// POST /admin/catalog-sync/kept-products/remove {catalog_id}: the admin removes a product whose
// removal they had discarded. Through the plugin's normal removal: an approved removal the next
// run applies before reading a page (counted and logged as that run's removal; an open order
// keeps what it reserves), queued at once; the product leaves the brake memory's discarded ids.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { brakeMemoryOf } from "../../../../../sync/safety-brake"
import { activeMapRows } from "../../../../../modules/catalog_sync/sql/product-map"
import { approveRemoval } from "../../../../../modules/catalog_sync/sql/held-removals"
import { catalogSyncRuntime, catalogSyncService, invalidData, serializeRun, zodFieldErrors } from "../../helpers"

export const removeKeptSchema = z
  .object({
    catalog_id: z
      .string()
      .trim()
      .regex(/^\d{1,20}$/, "must be a catalog id"),
  })
  .strict()

export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const parsed = removeKeptSchema.safeParse(req.body ?? {})
  if (!parsed.success) return invalidData(res, zodFieldErrors(parsed.error as z.ZodError))
  const catalogId = parsed.data.catalog_id
  const service = catalogSyncService(req.scope)
  const state = await service.getState()
  const memory = brakeMemoryOf(state.brake_memory)
  const [row] = memory.discarded.includes(catalogId) ? await activeMapRows(req.scope, [catalogId]) : []
  if (!row) return res.status(409).json({ type: "conflict", code: "not_kept", message: "The shop does not keep this product by a discarded removal" })
  // The approved row first: a crash after it leaves the removal to the next run.
  await approveRemoval(req.scope, row)
  await service.updateCatalogSyncStates({ id: state.id, brake_memory: { ...memory, discarded: memory.discarded.filter((id) => id !== catalogId) } })
  const { run, alreadyRunning } = await (await catalogSyncRuntime(req.scope).queue()).enqueueRun({ mode: "changes", trigger: "manual" })
  res.status(202).json({ run: serializeRun(run), already_running: alreadyRunning })
}
