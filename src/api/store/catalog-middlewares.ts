// Store API additions for catalog brands. Medusa reads only src/api/middlewares.ts, so the
// platform's file spreads `storeCatalogMiddlewares` into its defineMiddlewares routes.
import type { MedusaNextFunction, MedusaRequest, MedusaResponse, MiddlewareRoute } from "@medusajs/framework/http"

/** Product relations the plugin adds through module links (src/links). */
export const CATALOG_PRODUCT_RELATIONS = ["catalog_brand", "catalog_brand_model"]

/**
 * The store product routes only return fields on their allow list; this lets a storefront ask
 * for `fields=*catalog_brand,*catalog_brand_model` (or `+catalog_brand.name`).
 */
function allowCatalogRelations(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const allowed = ((req as unknown as { allowed?: string[] }).allowed ??= [])
  for (const relation of CATALOG_PRODUCT_RELATIONS) allowed.push(relation, `${relation}.*`)
  next()
}

export const storeCatalogMiddlewares: MiddlewareRoute[] = [
  { matcher: "/store/products", method: ["GET"], middlewares: [allowCatalogRelations] },
  { matcher: "/store/products/:id", method: ["GET"], middlewares: [allowCatalogRelations] },
]
