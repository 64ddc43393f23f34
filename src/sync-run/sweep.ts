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
  const service = catalogSyncService(container)
  const active = await service.listCatalogProductMaps({ status: "active" }, { select: ["id", "catalog_id", "product_id", "last_seen_pass"], take: null })
  // `keep`: removals the admin discarded at the safety brake (src/sync/safety-brake.ts).
  const unseen = active.filter((r) => r.last_seen_pass !== passId && !keep.has(r.catalog_id))
  for (let i = 0; i < unseen.length; i += CHUNK) {
    const chunk = unseen.slice(i, i + CHUNK)
    await removeMappedProducts(container, chunk, { mode })
    await removed?.(chunk.map((r) => r.catalog_id))
  }
  return unseen.length
}
