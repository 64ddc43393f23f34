// GET /admin/catalog-sync/kept-products?product_id=: the products the catalog no longer has that
// the shop keeps, in one list with counts: those whose removal the admin discarded at a pause
// (the brake memory's discarded ids whose product is still live: a product the catalog sends
// again leaves the memory, src/sync/safety-brake.ts) and those kept for an open order (table
// mcs_pending_removal, docs/open-orders.md). Each says since when and why.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { z } from "zod"
import { brakeMemoryOf } from "../../../../sync/safety-brake"
import { activeMapRows, claimedByMap } from "../../../../modules/catalog_sync/sql/product-map"
import { discardedSince, removalsWaiting } from "../../../../modules/catalog_sync/sql/held-removals"
import { productTitles } from "../../../../bulk-write/reads/product-titles"
import { catalogSyncService, invalidData, zodFieldErrors } from "../helpers"

export const keptProductsQuerySchema = z.object({ product_id: z.string().trim().min(1).max(100).optional() }).strict()

export type KeptProduct = {
  catalog_id: string | null
  product_id: string
  title: string | null
  reason: "discarded" | "open_order"
  since: string
  /** The paused run whose removal was discarded, or the run that kept the product for an order. */
  run_id: string | null
}

export async function keptProducts(req: MedusaRequest): Promise<KeptProduct[]> {
  const service = catalogSyncService(req.scope)
  const memory = brakeMemoryOf((await service.getState()).brake_memory)
  const live = (await activeMapRows(req.scope, memory.discarded)).filter((r): r is typeof r & { product_id: string } => !!r.product_id)
  const since = await discardedSince(
    req.scope,
    live.map((r) => r.catalog_id)
  )
  const allPending = await service.listCatalogPendingRemovals({ kind: "product" }, { order: { created_at: "DESC" }, take: null })
  // A product the catalog sends again is back on sale (its map row active): no longer kept.
  const claimed = await claimedByMap(
    req.scope,
    allPending.map((p) => p.product_id)
  )
  const pending = allPending.filter((p) => !claimed.products.has(p.product_id))
  const titles = await productTitles(req.scope, [...live.map((r) => r.product_id), ...pending.map((p) => p.product_id)])
  const discarded: KeptProduct[] = live.map((r) => ({
    catalog_id: r.catalog_id,
    product_id: r.product_id,
    title: titles.get(r.product_id) ?? null,
    reason: "discarded",
    since: new Date(since.get(r.catalog_id)?.since ?? Date.now()).toISOString(),
    run_id: since.get(r.catalog_id)?.paused_run_id ?? null,
  }))
  const forOrders: KeptProduct[] = pending.map((p) => ({
    catalog_id: p.catalog_id,
    product_id: p.product_id,
    title: titles.get(p.product_id) ?? null,
    reason: "open_order",
    since: new Date(p.created_at).toISOString(),
    run_id: p.run_id,
  }))
  return [...discarded, ...forOrders].sort(newestKeptFirst)
}

/**
 * Newest first; products kept at the same moment (one answer discards hundreds) by product id, so
 * the list keeps its order from one read to the next.
 */
export function newestKeptFirst(a: Pick<KeptProduct, "since" | "product_id">, b: Pick<KeptProduct, "since" | "product_id">): number {
  if (a.since !== b.since) return a.since < b.since ? 1 : -1
  return a.product_id < b.product_id ? -1 : a.product_id > b.product_id ? 1 : 0
}

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const parsed = keptProductsQuerySchema.safeParse(req.query ?? {})
  if (!parsed.success) return invalidData(res, zodFieldErrors(parsed.error as z.ZodError))
  const all = await keptProducts(req)
  const products = parsed.data.product_id ? all.filter((p) => p.product_id === parsed.data.product_id) : all
  // Products whose removal waits (held at a pause, confirmed, or removed from this list): still in
  // the shop, no longer sold by the catalog, and not kept. The sync page's split reads it, and of
  // them those a pause holds for the admin's answer (not decided) and those a run holds until its end.
  const memory = brakeMemoryOf((await catalogSyncService(req.scope).getState()).brake_memory)
  const waiting = await removalsWaiting(req.scope, memory.discarded, parsed.data.product_id)
  res.json({
    counts: {
      discarded: products.filter((p) => p.reason === "discarded").length,
      open_order: products.filter((p) => p.reason === "open_order").length,
      total: products.length,
      removing: waiting.total,
      awaiting_answer: waiting.awaiting_answer,
      held_until_run_end: waiting.held_until_run_end,
    },
    products,
  })
}
