// Removals a run holds instead of applying (models/catalog-held-removal.ts): every removal of a
// run (changes-feed `removed` items, the end-of-pass sweep, a narrowed filter) is recorded here
// before the cursor past it is stored, judged together by the safety brake once the run has
// read its last page, and applied only then (or, after a pause, once the admin confirms). So a
// pause has removed nothing, and a crash at any point neither loses a held removal (it is
// committed before the cursor moves) nor applies one twice (applying skips a product whose map
// row is no longer active, and marks the chunk applied after its removal committed).
import type { MedusaContainer } from "@medusajs/framework/types"
import { removeMappedProducts, type RemovalMode } from "../workflows/remove-catalog-products"
import { insertChangeRows } from "../modules/catalog_sync/sql/change-log"
import { activeMapRows } from "../modules/catalog_sync/sql/product-map"
import { markApplied, noHeldRemovals, pendingChunk, type HeldCounts, type PendingStatus } from "../modules/catalog_sync/sql/held-removals"
import { productTitles } from "../bulk-write/reads/product-titles"
import { removedChangeRow } from "../sync/change-rows"

// The rows themselves live behind the data module; the run and the sweep hold and count them from here.
export {
  countPending,
  heldIds,
  heldSample,
  holdRemovals,
  markPaused,
  releaseHolds,
  type HeldCounts,
  type HoldSource,
  type PendingStatus,
} from "../modules/catalog_sync/sql/held-removals"

/**
 * Applies the pending removals of this status a chunk at a time: removes the products whose map
 * row is still active (per `mode`), then marks the chunk applied. After a crash between the two,
 * the chunk's products are no longer active and are only marked. Returns how many products were
 * removed, by source. `beforeChunk`: the run's fence (a run that lost its lock removes nothing).
 */
export async function applyPending(
  container: MedusaContainer,
  status: PendingStatus,
  opts: { mode: RemovalMode; runId: string; beforeChunk?: () => Promise<void>; removed?: (catalogIds: string[]) => Promise<void> }
): Promise<HeldCounts> {
  const counts = noHeldRemovals()
  for (;;) {
    const chunk = await pendingChunk(container, status)
    if (!chunk.length) return counts
    await opts.beforeChunk?.()
    const active = await activeMapRows(
      container,
      chunk.map((r) => r.catalog_id)
    )
    let removed: typeof active = []
    if (active.length) {
      const titles = await productTitles(
        container,
        active.map((r) => r.product_id).filter((id): id is string => !!id)
      )
      const kept = new Set(await removeMappedProducts(container, active, { mode: opts.mode, runId: opts.runId, now: new Date() }))
      // A product kept for an open order is not removed by this run (it is listed as kept; the run
      // that finishes its removal counts and logs it).
      removed = active.filter((r) => !kept.has(r.catalog_id))
      await opts.removed?.(removed.map((r) => r.catalog_id))
      // The run's change log names what it removed (a held removal is logged when it is applied, not when held).
      await insertChangeRows(
        container,
        opts.runId,
        removed.map((r) => removedChangeRow(r, titles.get(r.product_id ?? "") ?? null))
      )
    }
    const sourceOf = new Map(chunk.map((r) => [r.catalog_id, r.source]))
    for (const r of removed) counts[sourceOf.get(r.catalog_id) ?? "feed"]++
    await markApplied(
      container,
      chunk.map((r) => r.id)
    )
  }
}
