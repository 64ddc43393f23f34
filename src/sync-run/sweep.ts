// The sweep at the end of a full pass (rule 6): mapped products the pass did not see
// were removed in the catalog while their removal events were lost with an old cursor.
import type { MedusaContainer } from "@medusajs/framework/types"
import { removeMappedProducts, type RemovalMode } from "../workflows/remove-catalog-products"
import { catalogSyncService } from "./product-map"

const CHUNK = 200

export async function sweepPass(container: MedusaContainer, passId: string, mode: RemovalMode): Promise<number> {
  const service = catalogSyncService(container)
  const active = await service.listCatalogProductMaps({ status: "active" }, { select: ["id", "product_id", "last_seen_pass"], take: null })
  const unseen = active.filter((r) => r.last_seen_pass !== passId)
  for (let i = 0; i < unseen.length; i += CHUNK) {
    await removeMappedProducts(container, unseen.slice(i, i + CHUNK), { mode })
  }
  return unseen.length
}
