// GET /admin/catalog-sync/kept-for-orders?run_id=: the sizes and products the catalog removed that
// the shop keeps because an open order reserved their stock (table mcs_pending_removal, see
// docs/open-orders.md), named as Medusa holds them. With run_id: those that run kept (a product
// names its run; a size is matched by when it was kept, within the run's start and end).
// `count` is every one of them (`counts` by kind); `kept` one page (limit, offset), newest first.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { Modules } from "@medusajs/framework/utils"
import { z } from "zod"
import { claimedByMap } from "../../../../modules/catalog_sync/sql/product-map"
import { catalogSyncService, invalidData, zodFieldErrors } from "../helpers"

/** Rows a page lists; the count is of every row, however many. */
const DEFAULT_PAGE = 50
const MAX_PAGE = 200

export const keptQuerySchema = z
  .object({
    run_id: z.string().trim().min(1).max(100).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(DEFAULT_PAGE),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .strict()

export type PendingRow = {
  kind: "size" | "product"
  subject_id: string
  product_id: string
  catalog_id: string | null
  run_id: string | null
  created_at: Date | string
}
type RunRow = { id: string; started_at?: Date | string | null; created_at?: Date | string | null; finished_at?: Date | string | null }

const time = (value: Date | string | null | undefined) => (value ? new Date(value).getTime() : null)

/** Whether `run` kept `row`: a product names its run; a size was recorded while the run ran. */
export function keptByRun(row: Pick<PendingRow, "run_id" | "created_at">, run: RunRow): boolean {
  if (row.run_id) return row.run_id === run.id
  const at = time(row.created_at)!
  const from = time(run.started_at) ?? time(run.created_at)
  const to = time(run.finished_at) ?? Infinity
  return from !== null && at >= from && at <= to
}

/**
 * One page of what the shop keeps for open orders, and the count of every one: those `run` kept
 * (every one without a run), less those back on sale (the catalog sends them again: the product's
 * map row active, the size claimed), newest first as `pending` comes.
 */
export function keptPage(
  pending: PendingRow[],
  claimed: { products: Set<string>; variants: Set<string> },
  run: RunRow | null,
  page: { limit: number; offset: number }
): { rows: PendingRow[]; count: number; counts: { products: number; sizes: number } } {
  const onSale = (r: PendingRow) => (r.kind === "product" ? claimed.products.has(r.product_id) : claimed.variants.has(r.subject_id))
  const kept = pending.filter((r) => (!run || keptByRun(r, run)) && !onSale(r))
  const products = kept.filter((r) => r.kind === "product").length
  return { rows: kept.slice(page.offset, page.offset + page.limit), count: kept.length, counts: { products, sizes: kept.length - products } }
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
  // Every row, so the count is the true total (the table holds a shop's open orders' removals:
  // few, and each is finished once its order is); only the page is named below.
  const pending = await service.listCatalogPendingRemovals({}, { order: { created_at: "DESC" }, take: null })
  // One the catalog sends again is back on sale, not kept: it leaves the list at once, before the
  // next run finishes its pending row.
  const claimed = await claimedByMap(req.scope, [...new Set(pending.map((r) => r.product_id))])
  const { limit, offset } = parsed.data
  const { rows, count, counts } = keptPage(pending, claimed, run, { limit, offset })
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
    count,
    counts,
    limit,
    offset,
  })
}
