// Products the catalog removed: soft-deleted by the run's writer (src/shop-writer: variants,
// prices, inventory and links with them), or set to draft when the setting says so. The one way
// a mapped product is removed: by a removal item of a page and by the sweep at the end of a pass.
// A product with stock an open order reserved is kept for the order (draft, off sale, a pending
// removal: bulk-write/open-orders.ts); its map row stays on it as a draft row, so the catalog
// sending it again restores it in place, and a later run removes it once nothing is reserved.
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { KEPT_FOR_OPEN_ORDER } from "../bulk-write"
import { updateMapRows } from "../modules/catalog_sync/sql/product-map"
import { dropRowsOfRemovedProducts } from "../modules/catalog_sync/sql/removed-products"
import type { MapRow } from "../sync/plan-page"
import { removeProductExtras } from "./extras"
import { timed } from "./steps/profile"
import { shopWriter } from "../shop-writer/choose-shop-writer"

import type { RemovalMode } from "../sync/settings"

export type { RemovalMode }

/** Removes the products per the mode; returns those kept for an open order (set to draft instead). */
export async function removeCatalogProducts(
  container: MedusaContainer,
  productIds: string[],
  mode: RemovalMode,
  runId: string | null = null
): Promise<string[]> {
  if (!productIds.length) return []
  if (mode === "draft") {
    await container.resolve(Modules.PRODUCT).updateProducts({ id: productIds }, { status: "draft" })
    return []
  }
  const keptForOrders = await (await shopWriter(container)).removeProducts(productIds, runId)
  if (keptForOrders.length) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .info(
        `catalog sync: ${keptForOrders.length} removed product(s) ${KEPT_FOR_OPEN_ORDER} (draft, off sale, removed once nothing is reserved): ${keptForOrders.join(", ")}`
      )
  }
  return keptForOrders
}

/**
 * Removes mapped products per the removal mode (their sale prices, translations and brand links
 * first, then the product: soft-deleted or set to draft) and marks their map rows; a removed
 * product's cost rows and field locks go (dropRowsOfRemovedProducts). The fingerprints are
 * forgotten, so a product the catalog sends again is rewritten in full. Returns the catalog ids
 * of the products kept for an open order instead: not removed yet (the run that finishes their
 * removal counts them).
 */
export async function removeMappedProducts(
  container: MedusaContainer,
  rows: Pick<MapRow, "id" | "catalog_id" | "product_id">[],
  opts: { mode: RemovalMode; runId?: string; now?: Date }
): Promise<string[]> {
  if (!rows.length) return []
  const productIds = rows.map((r) => r.product_id).filter((id): id is string => !!id)
  let kept = new Set<string>()
  if (productIds.length) {
    // Soft-deleted products take their brand links with them (the bulk removal's link tables).
    // deleteProductsWorkflow dismisses them the same way (the workflows path).
    const linksGoWithProducts = opts.mode !== "draft"
    await timed(container, "removal: sale prices, translations, brand links", () => removeProductExtras(container, productIds, { linksGoWithProducts }))
    kept = new Set(await timed(container, "removal: products", () => removeCatalogProducts(container, productIds, opts.mode, opts.runId ?? null)))
  }
  // By SQL (the data module's product-map.ts, the module's rows as product-map-rows.spec.ts checks):
  // the module's update loads and flushes each row through its ORM.
  await timed(container, "removal: map rows", () =>
    updateMapRows(
      container,
      rows.map((r) => {
        // A product kept for an open order is a draft the map still points at.
        const draft = opts.mode === "draft" || (!!r.product_id && kept.has(r.product_id))
        return {
          id: r.id,
          status: draft ? "draft" : "removed",
          fingerprint: null,
          stock_fingerprint: null,
          ...(opts.runId ? { last_run_id: opts.runId } : {}),
          ...(opts.now ? { synced_at: opts.now } : {}),
          ...(draft ? {} : { product_id: null, variant_ids: null, inventory_item_ids: null }),
        }
      })
    )
  )
  // What the plugin keeps per product goes with a removed one (a draft keeps its variants, and its rows).
  const gone = rows.filter((r) => opts.mode !== "draft" && !(r.product_id && kept.has(r.product_id)))
  await dropRowsOfRemovedProducts(container, {
    catalogIds: gone.map((r) => r.catalog_id),
    productIds: gone.map((r) => r.product_id).filter((id): id is string => !!id),
  })
  return rows.filter((r) => r.product_id && kept.has(r.product_id)).map((r) => r.catalog_id)
}
