// Removals outside a page: the sweep at the end of a full pass (rule 6: mapped products the pass
// did not see were removed in the catalog while their removal events were lost with an old
// cursor), and a narrowed filter (shop products it no longer keeps). Both are chosen by SQL on
// the product map and read a chunk at a time, so no per-product list is held across the catalog;
// both are held like a page's removals (held-removals.ts): judged by the safety brake with every
// other removal of the run once it has read its last page, and applied only then. A full pass's
// rejected cards count as seen (markSeenInPass), so the sweep keeps their products.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { CatalogSyncModuleService } from "../modules/catalog_sync"
import { activeMapRowsInScope, type RemovalScope } from "../modules/catalog_sync/sql/product-map"
import { holdRemovals, type HoldSource } from "./held-removals"

export type { RemovalScope }

/**
 * Holds the scope's removals (held-removals.ts), except `keep` (removals the admin discarded at
 * the safety brake): nothing is removed here; the run judges and applies them once it has read
 * its last page. Returns how many were added to the held ones.
 */
export async function holdScope(
  container: MedusaContainer,
  scope: RemovalScope,
  keep: ReadonlySet<string>,
  source: HoldSource,
  runId: string
): Promise<number> {
  let held = 0
  for await (const chunk of activeMapRowsInScope(container, scope, keep)) held += await holdRemovals(container, chunk, source, runId)
  return held
}

/**
 * A rejected card says nothing about whether its product is still on sale: during a full pass
 * its product (if the shop has it) counts as seen, so the sweep keeps it.
 */
export async function markSeenInPass(
  maps: Pick<CatalogSyncModuleService, "updateCatalogProductMaps">,
  fullPassId: string | null,
  rejected: readonly { id: string | null }[]
): Promise<void> {
  const ids = rejected.map((r) => r.id).filter((id): id is string => Boolean(id))
  if (fullPassId && ids.length) await maps.updateCatalogProductMaps({ selector: { catalog_id: ids }, data: { last_seen_pass: fullPassId } })
}
