// Products the catalog removed: soft-deleted in bulk (src/bulk-write: the rows and events of
// Medusa's deleteProductsWorkflow, variants, prices, inventory and links with them, one
// transaction), or set to draft when the setting says so. The one way
// a mapped product is removed: by a removal item of a page and by the sweep at the end of a pass.
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { writePageInBulk } from "../bulk-write"
import { updateMapRows } from "./page/product-map-rows"
import { knexOf } from "./page/store-variant-costs-step"
import type { MapRow } from "../sync/plan-page"
import { removeProductExtras } from "./extras"
import { timed } from "./steps/profile"
import { writePathOf } from "./write-path"
import { removeProductsThroughCoreFlows } from "./writes-through-core-flows"

import type { RemovalMode } from "../sync/settings"

export type { RemovalMode }

export async function removeCatalogProducts(container: MedusaContainer, productIds: string[], mode: RemovalMode): Promise<void> {
  if (!productIds.length) return
  if (mode === "draft") {
    await container.resolve(Modules.PRODUCT).updateProducts({ id: productIds }, { status: "draft" })
    return
  }
  if ((await writePathOf(container)) === "workflows") await removeProductsThroughCoreFlows(container, productIds)
  else await writePageInBulk(container, (page) => page.removeProducts(productIds))
}

/**
 * Removes mapped products per the removal mode (their sale prices, translations and brand links
 * first, then the product: soft-deleted or set to draft) and marks their map rows. The
 * fingerprints are forgotten, so a product the catalog sends again is rewritten in full.
 */
export async function removeMappedProducts(
  container: MedusaContainer,
  rows: Pick<MapRow, "id" | "product_id">[],
  opts: { mode: RemovalMode; runId?: string; now?: Date }
): Promise<void> {
  if (!rows.length) return
  const productIds = rows.map((r) => r.product_id).filter((id): id is string => !!id)
  if (productIds.length) {
    // Soft-deleted products take their brand links with them (the bulk removal's link tables).
    // deleteProductsWorkflow dismisses them the same way (the workflows path).
    const linksGoWithProducts = opts.mode !== "draft"
    await timed(container, "removal: sale prices, translations, brand links", () => removeProductExtras(container, productIds, { linksGoWithProducts }))
    await timed(container, "removal: products", () => removeCatalogProducts(container, productIds, opts.mode))
  }
  // By SQL (product-map-rows.ts, the module's rows as product-map-rows.spec.ts checks): the
  // module's update loads and flushes each row through its ORM, about 150 ms a page of 200.
  await timed(container, "removal: map rows", () => updateMapRows(knexOf(container),
    rows.map((r) => ({
      id: r.id,
      status: opts.mode === "draft" ? "draft" : "removed",
      fingerprint: null,
      stock_fingerprint: null,
      ...(opts.runId ? { last_run_id: opts.runId } : {}),
      ...(opts.now ? { synced_at: opts.now } : {}),
      ...(opts.mode === "delete" ? { product_id: null, variant_ids: null, inventory_item_ids: null } : {}),
    }))
  ))
}
