// GET /admin/catalog-sync/kept-for-orders?run_id=: the sizes and products the catalog removed that
// the shop keeps because an open order reserved their stock (table mcs_pending_removal, see
// docs/open-orders.md), named as Medusa holds them. With run_id: those that run kept (a product
// names its run; a size is matched by when it was kept, within the run's start and end).
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { Modules } from "@medusajs/framework/utils"
import { z } from "zod"
import { claimedByMap } from "../../../../modules/catalog_sync/sql/product-map"
import { catalogSyncService, invalidData, zodFieldErrors } from "../helpers"

export const keptQuerySchema = z.object({ run_id: z.string().trim().min(1).max(100).optional() }).strict()

type PendingRow = {
  kind: "size" | "product"
  subject_id: string
  product_id: string
  catalog_id: string | null
  run_id: string | null
  created_at: Date | string
}
type RunRow = { id: string; started_at?: Date | string | null; created_at?: Date | string | null; finished_at?: Date | string | null }

/** The most a page lists: the table holds a shop's open orders' removals, a few at a time. */
const MAX_ROWS = 200

const time = (value: Date | string | null | undefined) => (value ? new Date(value).getTime() : null)

/** Whether `run` kept `row`: a product names its run; a size was recorded while the run ran. */
export function keptByRun(row: Pick<PendingRow, "run_id" | "created_at">, run: RunRow): boolean {
  if (row.run_id) return row.run_id === run.id
  const at = time(row.created_at)!
  const from = time(run.started_at) ?? time(run.created_at)
  const to = time(run.finished_at) ?? Infinity
  return from !== null && at >= from && at <= to
}

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const parsed = keptQuerySchema.safeParse(req.query ?? {})
  if (!parsed.success) return invalidData(res, zodFieldErrors(parsed.error as z.ZodError))
  const service = catalogSyncService(req.scope) as unknown as {
    listCatalogPendingRemovals(filter: object, config: object): Promise<PendingRow[]>
    listCatalogSyncRuns(filter: object, config: object): Promise<RunRow[]>
  }
  let run: RunRow | null = null
  if (parsed.data.run_id) {
    ;[run = null] = await service.listCatalogSyncRuns({ id: parsed.data.run_id }, { take: 1 })
    if (!run) return res.status(404).json({ type: "not_found", message: `Catalog sync run ${parsed.data.run_id} was not found` })
  }
  const pending = await service.listCatalogPendingRemovals({}, { order: { created_at: "DESC" }, take: MAX_ROWS })
  // One the catalog sends again (its map row active, the size claimed) is back on sale, not kept:
  // it leaves the list at once, before the next run finishes its pending row.
  const claimed = await claimedByMap(req.scope, [...new Set(pending.map((r) => r.product_id))])
  const onSale = (r: PendingRow) => (r.kind === "product" ? claimed.products.has(r.product_id) : claimed.variants.has(r.subject_id))
  const rows = (run ? pending.filter((r) => keptByRun(r, run!)) : pending).filter((r) => !onSale(r))
  const products = req.scope.resolve(Modules.PRODUCT)
  const productIds = [...new Set(rows.map((r) => r.product_id))]
  const variantIds = rows.filter((r) => r.kind === "size").map((r) => r.subject_id)
  const titles = new Map(
    productIds.length
      ? ((await products.listProducts({ id: productIds }, { select: ["id", "title"], take: null, withDeleted: true })) as { id: string; title: string }[]).map(
          (p) => [p.id, p.title]
        )
      : []
  )
  const sizes = new Map(
    variantIds.length
      ? (
          (await products.listProductVariants({ id: variantIds }, { select: ["id", "title"], take: null, withDeleted: true })) as {
            id: string
            title: string | null
          }[]
        ).map((v) => [v.id, v.title])
      : []
  )
  res.json({
    kept: rows.map((r) => ({
      kind: r.kind,
      product_id: r.product_id,
      title: titles.get(r.product_id) ?? null,
      size: r.kind === "size" ? (sizes.get(r.subject_id) ?? null) : null,
      catalog_id: r.catalog_id,
      run_id: r.run_id,
      kept_at: new Date(r.created_at).toISOString(),
    })),
  })
}
