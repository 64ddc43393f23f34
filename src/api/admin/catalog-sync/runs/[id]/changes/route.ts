// GET /admin/catalog-sync/runs/:id/changes?kind=&q=&offset=&limit=: one run's change log,
// newest first, filtered by kind and searched by catalog id, product id or title.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { CATALOG_SYNC_MODULE } from "../../../../../../modules/catalog_sync/module-name"
import { invalidData, pagingFields, zodFieldErrors } from "../../../helpers"

export const changesQuerySchema = z
  .object({
    kind: z.enum(["created", "updated", "removed", "drafted", "rejected"]).optional(),
    q: z.string().trim().min(1).max(100).optional(),
    ...pagingFields(),
  })
  .strict()

type ChangeService = {
  listCatalogSyncRuns(filter: unknown, config: unknown): Promise<{ id: string; progress?: unknown }[]>
  listAndCountCatalogSyncRunChanges(filter: unknown, config: unknown): Promise<[Record<string, unknown>[], number]>
}

/** ILIKE pattern of a search text: its own % and _ are literal. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const parsed = changesQuerySchema.safeParse(req.query ?? {})
  if (!parsed.success) return invalidData(res, zodFieldErrors(parsed.error as z.ZodError))
  const { kind, q, limit, offset } = parsed.data
  const service = req.scope.resolve<ChangeService>(CATALOG_SYNC_MODULE)
  const [run] = await service.listCatalogSyncRuns({ id: req.params.id }, { take: 1, select: ["id", "progress"] })
  if (!run) {
    res.status(404).json({ type: "not_found", message: `Catalog sync run ${req.params.id} was not found` })
    return
  }
  const filter: Record<string, unknown> = { run_id: run.id }
  if (kind) filter.kind = kind
  if (q) {
    const pattern = likePattern(q)
    filter.$or = [{ catalog_id: q }, { product_id: q }, { title: { $ilike: pattern } }]
  }
  const [changes, count] = await service.listAndCountCatalogSyncRunChanges(filter, {
    order: { created_at: "DESC", id: "ASC" },
    skip: offset,
    take: limit,
  })
  const progress = (run.progress ?? null) as { change_log_omitted?: unknown } | null
  res.json({
    changes: changes.map(({ deleted_at: _d, updated_at: _u, ...row }) => row),
    count,
    limit,
    offset,
    // Changes counted in the run's figures without a row of their own (the size cap), by kind.
    omitted: progress?.change_log_omitted && typeof progress.change_log_omitted === "object" ? progress.change_log_omitted : {},
  })
}
