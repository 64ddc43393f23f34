// The sweep at the end of a full pass (rule 6): mapped products the pass did not see
// were removed in the catalog while their removal events were lost with an old cursor.
import type { MedusaContainer } from "@medusajs/framework/types"
import { removeMappedProducts, type RemovalMode } from "../workflows/remove-catalog-products"
import { catalogSyncService } from "./product-map"

const CHUNK = 200

/** `removed`: told the catalog ids of each chunk once its products were removed (mirrored images release theirs). */
export async function sweepPass(
  container: MedusaContainer,
  passId: string,
  mode: RemovalMode,
  keep: ReadonlySet<string> = new Set(),
  removed?: (catalogIds: string[]) => Promise<void>
): Promise<number> {
  // `keep`: removals the admin discarded at the safety brake (src/sync/safety-brake.ts).
  return removeActiveUnless(container, mode, (r) => r.last_seen_pass === passId || keep.has(r.catalog_id), removed)
}

/** Removes (per `mode`) every active mapped product `keep` does not hold; returns how many. */
export async function removeActiveUnless(
  container: MedusaContainer,
  mode: RemovalMode,
  keep: (row: { catalog_id: string; last_seen_pass: string | null }) => boolean,
  removed?: (catalogIds: string[]) => Promise<void>
): Promise<number> {
  const service = catalogSyncService(container)
  const active = await service.listCatalogProductMaps({ status: "active" }, { select: ["id", "catalog_id", "product_id", "last_seen_pass"], take: null })
  const gone = active.filter((r) => !keep(r))
  for (let i = 0; i < gone.length; i += CHUNK) {
    const chunk = gone.slice(i, i + CHUNK)
    await removeMappedProducts(container, chunk, { mode })
    await removed?.(chunk.map((r) => r.catalog_id))
  }
  return gone.length
}
