// GET /admin/catalog-sync/products/:product_id/catalog: the catalog link of a shop product.
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { catalogSyncService } from "../../../helpers"

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const [map] = await catalogSyncService(req.scope).listCatalogProductMaps({ product_id: req.params.product_id }, { take: 1, order: { created_at: "DESC" } })
  res.json({
    link: map
      ? {
          catalog_id: map.catalog_id,
          sku: map.sku,
          sync_version: map.sync_version,
          synced_at: map.synced_at,
          status: map.status,
        }
      : null,
  })
}
